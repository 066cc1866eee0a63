// Input bytes made safe to quote in a diagnostic line (issue 9: the terminal is never an
// attack surface). A diagnostic quotes names, tokens, tag values and file names taken from the
// input; written raw they could move the cursor, retitle the window, clear the screen or split
// one diagnostic into several lines, and a 16 MiB token would make a 16 MiB line.
//
// What is written:
// - Printable ASCII and valid UTF-8 (accented names, Cyrillic, figurines such as U+2658) as is.
// - C0 controls and DEL escaped: `\n`, `\r`, `\t`, otherwise `\x1b`, `\x07`, `\x7f` (lower
//   case hex). Control characters encoded in valid UTF-8 are escaped by code point: the C1
//   controls U+0080..U+009F (`\u009b`), and the characters that reorder or split a line: bidi
//   marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A..U+202E,
//   U+2066..U+2069) and the line and paragraph separators U+2028, U+2029.
// - Bytes that are not valid UTF-8 (a lone 0x9b, overlong forms, surrogates, code points past
//   U+10FFFF, a sequence cut short) escaped one byte at a time: `\x9b`, `\xc0\x80`.
//   Exception, Latin-1: when the quoted text is not valid UTF-8 and every byte >= 0x80 in it is
//   a printable Latin-1 character (0xa0..0xff), the file is taken to hold Latin-1 and the text
//   is written decoded as Latin-1, in UTF-8: `M\xfcller` of a Latin-1 file reads "Müller". The
//   decision is made per quoted piece (a name, a token): a piece mixing UTF-8 letters and stray
//   Latin-1 bytes is shown as Latin-1 too, which is what its bytes are.
// - A backslash stays a single `\` (so the PGN escapes `\"` of tag values and every ordinary
//   message read as before) except where the text after it would read as one of the escapes
//   above: before `x`, `u`, `n`, `r`, `t`, another backslash or an escape it is written `\\`.
//   So every line decodes one way: `\\` is a backslash, `\x`/`\u`/`\n`/`\r`/`\t` an escape,
//   and a `\` before anything else is a backslash.
// - At most max_bytes bytes of input: a longer text is cut at a character boundary (never
//   inside a UTF-8 sequence) at or before max_bytes and `...` follows. The cut counts input
//   bytes, not output bytes: escapes at most quadruple it (60 bytes -> at most 240 + 3).
//
// Plain ASCII text without backslashes within the limit is appended as is with no other work.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pgn_iccf::report {

// Quoted pieces of input (tokens, names, tag values) keep at most this many bytes.
inline constexpr std::size_t quoted_bytes = 60;
// Whole message texts that may embed input (the grammar's, a FEN error) keep at most this.
inline constexpr std::size_t message_bytes = 200;
// No cut: escaping only (file names).
inline constexpr std::size_t no_cut = std::string_view::npos;

// Appends bytes to out made safe as described above.
void append_terminal_safe(std::string& out, std::string_view bytes,
                          std::size_t max_bytes = quoted_bytes);

// The same, as a new string.
std::string terminal_safe(std::string_view bytes, std::size_t max_bytes = quoted_bytes);

// A message text that quotes the token `quoted` (the grammar writes "unknown annotation symbol
// '<token>'", "NAG <token> is out of range"): the first occurrence of quoted is cut like a
// token (quoted_bytes), the wording around it is escaped and cut at max_bytes each. Without
// quoted in it, the whole message is escaped and cut at max_bytes.
void append_terminal_safe_message(std::string& out, std::string_view message,
                                  std::string_view quoted, std::size_t max_bytes = message_bytes);

} // namespace pgn_iccf::report
