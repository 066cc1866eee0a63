// The one line shape of a diagnostic (line.hpp), as text and as JSON.
#include "report/line.hpp"

#include "grammar/parse.hpp"
#include "report/terminal.hpp"

namespace pgn_iccf::report {

namespace {

// The length of the valid UTF-8 sequence at s[i] (2-4), or 0 when there is none.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    auto const b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    auto const cont = [&](std::size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
    unsigned char const c = b(0);
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
        if (c == 0xED && b(1) >= 0xA0) return 0; // surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
        if (c == 0xF4 && b(1) >= 0x90) return 0; // past U+10FFFF
        return 4;
    }
    return 0;
}

void append_u00(std::string& out, unsigned char c) {
    constexpr char hex[] = "0123456789abcdef";
    out += "\\u00";
    out += hex[c >> 4];
    out += hex[c & 15];
}

// Returns where the text after "SEVERITY: " starts in `m`.
std::size_t append_text(std::string& m, Line const& l) {
    append_terminal_safe(m, l.file, no_cut);
    m += ':' + std::to_string(l.where.line) + ':' + std::to_string(l.where.column);
    m += l.severity == syntax::Severity::error ? ": error: " : ": warning: ";
    std::size_t const text = m.size();
    if (l.game != 0) {
        m += "game " + std::to_string(l.game);
        std::string white, black;
        parser::unescape_tag_value(l.white, white);
        parser::unescape_tag_value(l.black, black);
        if (!white.empty() || !black.empty()) {
            m += " (";
            append_terminal_safe(m, white.empty() ? "?" : white);
            m += " - ";
            append_terminal_safe(m, black.empty() ? "?" : black);
            m += ')';
        }
        if (l.move_number != 0) {
            m += ", move " + std::to_string(l.move_number);
            m += l.side == chess::Color::white ? "." : "...";
        }
        m += ": ";
    }
    if (!l.token.empty()) {
        m += '\'';
        append_terminal_safe(m, l.token);
        m += "': ";
    }
    m += l.text;
    m += '\n';
    return text;
}

void append_json(std::string& m, Line const& l) {
    m += "{\"file\":";
    append_json_string(m, l.file);
    m += ",\"line\":" + std::to_string(l.where.line);
    m += ",\"column\":" + std::to_string(l.where.column);
    m += l.severity == syntax::Severity::error ? ",\"severity\":\"error\""
                                               : ",\"severity\":\"warning\"";
    m += ",\"code\":";
    append_json_string(m, l.code);
    m += ",\"game\":";
    m += l.game != 0 ? std::to_string(l.game) : "null";
    m += ",\"players\":";
    if (l.game != 0 && (!l.white.empty() || !l.black.empty())) {
        std::string white, black;
        parser::unescape_tag_value(l.white, white);
        parser::unescape_tag_value(l.black, black);
        m += "{\"white\":";
        append_json_string(m, white);
        m += ",\"black\":";
        append_json_string(m, black);
        m += '}';
    } else {
        m += "null";
    }
    m += ",\"move\":";
    if (l.move_number != 0)
        m +=
            '"' + std::to_string(l.move_number) + (l.side == chess::Color::white ? ".\"" : "...\"");
    else
        m += "null";
    m += ",\"token\":";
    append_json_string(m, l.token);
    m += ",\"text\":";
    append_json_string(m, l.text);
    m += ",\"suggestions\":[";
    if (l.suggestions != nullptr) {
        bool first = true;
        for (pgn::NamedMove const& s : *l.suggestions) {
            m += first ? "{\"numeric\":" : ",{\"numeric\":";
            append_json_string(m, s.numeric.view());
            m += ",\"san\":";
            append_json_string(m, s.san.view());
            m += '}';
            first = false;
        }
    }
    m += "]}\n";
}

} // namespace

void append_json_string(std::string& out, std::string_view s) {
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            std::size_t const n = utf8_length(s, i);
            if (n == 0) {
                append_u00(out, c); // not UTF-8: the byte as Latin-1
                ++i;
            } else if (n == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                       (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8) {
                out += s[i + 2] == '\xA8' ? "\\u2028" : "\\u2029"; // line separators
                i += 3;
            } else {
                out.append(s.substr(i, n));
                i += n;
            }
            continue;
        }
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7F) {
            append_u00(out, c);
        } else {
            out += static_cast<char>(c);
        }
        ++i;
    }
    out += '"';
}

std::size_t append_line(std::string& out, Line const& line, Format format) {
    if (format == Format::text) return append_text(out, line);
    std::size_t const start = out.size();
    append_json(out, line);
    return start;
}

} // namespace pgn_iccf::report
