// Control characters in user text (names, file names, --set values): the C0 set
// (U+0000-U+001F), DEL (U+007F) and the C1 set (U+0080-U+009F, in UTF-8 the bytes
// 0xC2 0x80-0x9F; U+009B is an 8-bit CSI that terminals obey like ESC [). Readers refuse
// them in names; error messages show them escaped, so a message stays one line, a NUL
// does not cut it short, and nothing reaches the terminal raw.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ridge {

// The length in bytes of the control character at s[i] (1 for C0 and DEL, 2 for a C1
// in UTF-8), or 0 when s[i] does not start one.
size_t control_char_at(std::string_view s, size_t i);

// The first control character of `s`, written as 0xNN (C0, DEL) or U+XXXX (C1), or nothing.
std::optional<std::string> first_control_char(std::string_view s);

// `s` with \n, \t, \r shown as such and every other control character as \xNN
// (C0, DEL) or \u0080-\u009F (C1).
std::string printable(std::string_view s);

}  // namespace ridge
