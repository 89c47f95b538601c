// Putting user text (model, layer and hardware names) into gnuplot input without it
// ever executing. gnuplot expands `backquotes` inside double-quoted strings and
// @macros on command lines, and evaluates system("..."); none of that happens to
// text read from a data file or written inside a single-quoted string. So:
//   - names go into data files (`using ... :(stringcolumn(n))`, `with labels`,
//     `title columnheader`) through data_string();
//   - the few names a script must hold itself (the title) go through gp_string(),
//     a single-quoted literal.
// For the LaTeX terminal every such text is also LaTeX-escaped, so a name cannot
// run \input or \write18 when the author compiles the paper.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ridge::plots {

enum class TextMarkup { plain, latex };

// Labels longer than this many characters end in "..." (a 2,400-character layer name
// made the PNG terminal fail, and a 3,000-character one overfull LaTeX's buffers).
inline constexpr size_t kMaxLabelChars = 120;

// Text as it should appear: control characters (newlines, tabs, C1) become spaces, a
// "]]>" becomes "]] >" (it ends XML text in an SVG), the text is cut at kMaxLabelChars
// and, for LaTeX, the ten special characters are escaped (\textbackslash{}, \%, \#, ...)
// and each non-ASCII character becomes '?' (pdflatex cannot set CJK or emoji by default).
std::string display_text(std::string_view text, TextMarkup markup);

// A double-quoted data-file field. gnuplot reads backslash escapes (\t, \\) in a data
// field used as text (a `using` column, xticlabels(N), columnheader) once, so every
// backslash is doubled; it has no escape for '"', so a '"' is written as two
// apostrophes (''), which reads (and, in LaTeX, typesets) as a closing double quote.
// '#', spaces and backquotes are inert inside the quotes. Scripts take such fields
// by column number, never through stringcolumn(), which reads escapes a second time.
std::string data_string(std::string_view text, TextMarkup markup);

// A single-quoted gnuplot string literal ('' doubles a quote). No backquote, macro or
// escape processing happens inside single quotes.
std::string gp_string(std::string_view text, TextMarkup markup);

// The same two, for a label set at `points` (not the figure's font size). gnuplot's
// `font ',9'` on a label sizes it in every terminal but the LaTeX one, whose text
// LaTeX sets: there the size goes into the text (\fontsize{9}{10.8}\selectfont ...);
// elsewhere the text is as above and the caller adds the `font` option.
std::string data_string(std::string_view text, TextMarkup markup, double points);
std::string gp_string(std::string_view text, TextMarkup markup, double points);

// A number for a data file or script: 12 significant digits (%.12g): readable, and within 1e-11 of the engine.
std::string gp_number(double v);

}  // namespace ridge::plots
