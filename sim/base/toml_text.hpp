// Writing text into a TOML file that ridge generates (a calibrated descriptor, an
// imported model): every string a user or a file name supplies goes through one of
// these, so a newline or quote in it cannot end the comment or string and inject live
// TOML (issue #22: `ridge calibrate --data $'x\n[efficiency]\ncompute = 0.01'`).
#pragma once

#include <string>

namespace ridge {

// A TOML basic string, quotes included: '"' and '\' escaped, control characters
// (U+0000-U+001F, U+007F) written as \uXXXX, so it reads back as the same text.
std::string toml_quoted(const std::string& text);

// Text for a `# ...` comment: control characters (a newline among them) written as
// \uXXXX, so the comment stays one line and the text after it stays a comment.
std::string toml_comment_text(const std::string& text);

}  // namespace ridge
