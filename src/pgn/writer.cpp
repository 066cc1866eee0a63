#include "pgn/writer.hpp"

namespace pgn_iccf::pgn {

void MovetextWriter::begin(std::string& out, int width) {
    out_ = &out;
    width_ = width <= 0 ? std::string::npos : std::size_t(width);
    column_ = 0;
    glue_next_ = true;
}

// Writes the separator before a word of `len` bytes: nothing at the start of a line or
// after "(", else a space, or a line break if the word would not fit.
void MovetextWriter::separator_then(std::size_t len) {
    if (glue_next_) {
        glue_next_ = false;
        if (column_ == 0 || column_ + len <= width_) return;
        // "(" at the end of a line with no room for what follows: break after it.
        out_->push_back('\n');
        column_ = 0;
        return;
    }
    if (column_ + 1 + len <= width_) {
        out_->push_back(' ');
        ++column_;
    } else {
        out_->push_back('\n');
        column_ = 0;
    }
}

void MovetextWriter::word(std::string_view text, bool glue_left) {
    if (glue_left) {
        // ")" sticks to what precedes it even past the width: a line may not start with
        // it in our layout, and one character over is never reached because
        // close_variation reserves it (see below).
        out_->append(text);
        column_ += text.size();
        return;
    }
    separator_then(text.size());
    out_->append(text);
    column_ += text.size();
}

void MovetextWriter::token(std::string_view text) { word(text, false); }

void MovetextWriter::open_variation() {
    word("(", false);
    glue_next_ = true;
}

void MovetextWriter::close_variation() {
    if (column_ + 1 > width_) {
        out_->push_back('\n');
        column_ = 0;
    }
    word(")", true);
    glue_next_ = false;
}

void MovetextWriter::comment(std::string_view text) {
    // Split into words at break opportunities: a single space, or a white-space run that
    // holds a line break. Other bytes, including other white-space runs, belong to words.
    std::size_t i = 0;
    std::size_t const n = text.size();
    bool first = true;
    std::size_t word_start = 0;
    auto is_ws = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    auto emit = [&](std::size_t b, std::size_t e, bool last) {
        std::size_t len = (e - b) + (first ? 1 : 0) + (last ? 1 : 0);
        separator_then(len);
        if (first) out_->push_back('{');
        out_->append(text.substr(b, e - b));
        if (last) out_->push_back('}');
        column_ += len;
        first = false;
    };
    while (i < n) {
        if (!is_ws(text[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        bool has_break = false;
        while (j < n && is_ws(text[j])) {
            has_break |= text[j] == '\n' || text[j] == '\r';
            ++j;
        }
        bool opportunity = has_break || (j - i == 1 && text[i] == ' ');
        if (opportunity) {
            emit(word_start, i, false);
            word_start = j;
        }
        i = j;
    }
    emit(word_start, n, true);
}

void MovetextWriter::line_comment(std::string_view text) {
    separator_then(1 + text.size());
    out_->push_back(';');
    out_->append(text);
    out_->push_back('\n');
    column_ = 0;
    glue_next_ = true;
}

void MovetextWriter::end() {
    out_->push_back('\n');
    column_ = 0;
    glue_next_ = true;
}

void write_tag(std::string& out, std::string_view name, std::string_view value) {
    out.push_back('[');
    out.append(name);
    out.append(" \"");
    for (char c : value) {
        if (c == '\\' || c == '"') out.push_back('\\');
        out.push_back(c);
    }
    out.append("\"]\n");
}

} // namespace pgn_iccf::pgn
