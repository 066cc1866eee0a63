// FEN input and output, including X-FEN and Shredder-FEN castling fields for Chess960.
#include "chess/position.hpp"

#include <charconv>

namespace pgn_iccf::chess {

namespace {

constexpr std::string_view piece_letters = " PNBRQK";

// Splits on runs of spaces/tabs; returns the number of fields (at most `max` are stored).
int split_fields(std::string_view s, std::array<std::string_view, 7>& fields) {
    int n = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
        if (i == s.size()) break;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r') ++j;
        if (n < int(fields.size())) fields[std::size_t(n)] = s.substr(i, j - i);
        ++n;
        i = j;
    }
    return n;
}

bool parse_number(std::string_view s, int max, int& out) {
    if (s.empty() || s.size() > 9) return false;
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0 || v > max) return false;
    out = v;
    return true;
}

} // namespace

void Position::set_castling_right(Color c, CastleSide side, Square rook) {
    int bit = index(c) * 2 + int(side);
    Square ksq = king_square(c);
    Square kto = castle_king_to(c, side);
    Square rto = castle_rook_to(c, side);
    st_.castling |= std::uint8_t(1U << bit);
    castling_rook_[std::size_t(c)][std::size_t(side)] = rook;
    Bitboard span = between(ksq, kto) | kto.bb() | between(rook, rto) | rto.bb();
    castling_path_[std::size_t(bit)] = span & ~(ksq.bb() | rook.bb());
    // The destination is tested even when the king does not move: the castling rook may be
    // what shields it (king c1, rook b1, enemy queen a1).
    castling_king_path_[std::size_t(bit)] = between(ksq, kto) | kto.bb();
    castling_keep_[std::size_t(ksq.index())] &= std::uint8_t(~(3U << (index(c) * 2)));
    castling_keep_[std::size_t(rook.index())] &= std::uint8_t(~(1U << bit));
}

// The board field: pieces placed, one king a side, no pawn on the first or eighth rank.
FenError Position::read_board(std::string_view field) {
    int rank = 7;
    int file = 0;
    for (std::size_t i = 0; i != field.size(); ++i) {
        char const ch = field[i];
        if (ch == '/') {
            if (file != 8) return {FenCode::rank_short, rank + 1, {}};
            if (rank == 0) return {FenCode::too_many_ranks, 0, {}};
            --rank;
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
            if (file > 8) return {FenCode::rank_long, rank + 1, {}};
        } else {
            auto t = piece_letters.find(char(ch | 0x20) == ch ? char(ch - 32) : ch);
            if (t == std::string_view::npos || t == 0)
                return {FenCode::bad_board_character, 0, field.substr(i, 1)};
            if (file > 7) return {FenCode::rank_long, rank + 1, {}};
            Color c = (ch >= 'a' && ch <= 'z') ? Color::black : Color::white;
            put_piece(Piece(c, PieceType(t)), Square::at(file, rank));
            ++file;
        }
    }
    if (rank != 0 || file != 8) return {FenCode::not_8_ranks, 0, {}};
    for (Color c : {Color::white, Color::black}) {
        int kings = popcount(pieces(c, PieceType::king));
        if (kings != 1)
            return {c == Color::white ? FenCode::white_kings : FenCode::black_kings, kings, {}};
    }
    if (pieces(PieceType::pawn) & 0xFF000000000000FFULL) return {FenCode::pawn_on_back_rank, 0, {}};

    return {};
}

// The castling field ("-", KQkq, file letters): rights set; `needs960` when only Chess960
// gives them a meaning.
FenError Position::read_castling(std::string_view field, bool& needs960) {
    needs960 = false;
    if (field != "-") {
        for (std::size_t i = 0; i != field.size(); ++i) {
            char const ch = field[i];
            std::string_view const right = field.substr(i, 1);
            Color c = (ch >= 'a' && ch <= 'z') ? Color::black : Color::white;
            char up = c == Color::black ? char(ch - 32) : ch;
            int back = home_rank(c);
            Square ksq = king_square(c);
            if (ksq.rank() != back) return {FenCode::castling_king_off_rank, 0, right};
            if (ksq.file() == 0 || ksq.file() == 7)
                return {FenCode::castling_king_in_corner, 0, right};
            Bitboard rooks = pieces(c, PieceType::rook) & (Bitboard{0xFF} << (8 * back));
            Square rook{};
            if (up == 'K' || up == 'Q') {
                bool king_side = up == 'K';
                for (int fl = king_side ? 7 : 0; king_side ? fl > ksq.file() : fl < ksq.file();
                     fl += king_side ? -1 : 1)
                    if (rooks & Square::at(fl, back).bb()) {
                        rook = Square::at(fl, back);
                        break;
                    }
                if (!rook.ok()) return {FenCode::castling_no_rook_on_side, 0, right};
            } else if (up >= 'A' && up <= 'H') {
                rook = Square::at(up - 'A', back);
                if (!(rooks & rook.bb())) return {FenCode::castling_no_rook_on_file, 0, right};
                if (rook.file() == ksq.file()) return {FenCode::castling_king_file, 0, right};
                needs960 = true;
            } else {
                return {FenCode::bad_castling_character, 0, right};
            }
            CastleSide side = castle_side(ksq, rook);
            if (can_castle(c, side)) return {FenCode::duplicate_castling, 0, right};
            if (ksq.file() != 4 || (rook.file() != 0 && rook.file() != 7)) needs960 = true;
            set_castling_right(c, side, rook);
        }
    }
    return {};
}

// The en passant field: validated for shape; the square kept only when a capture there is
// legal (the check info must be up to date).
FenError Position::read_en_passant(std::string_view field) {
    if (field != "-") {
        std::string_view e = field;
        if (e.size() != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8')
            return {FenCode::bad_en_passant, 0, e};
        Square ep = Square::at(e[0] - 'a', e[1] - '1');
        if (ep.rank() != relative_rank(st_.side, 5))
            return {FenCode::en_passant_wrong_rank, st_.side == Color::white ? 6 : 3, e};
        int dir = pawn_push(st_.side);
        Square pushed(ep.index() - dir);
        Square origin(ep.index() + dir);
        if (piece_on(pushed) == Piece(~st_.side, PieceType::pawn) && piece_on(ep).empty() &&
            piece_on(origin).empty())
            set_ep_if_capturable(ep);
    }
    return {};
}

FenError Position::set_fen(std::string_view fen, bool chess960) {
    std::array<std::string_view, 7> f{};
    int nfields = split_fields(fen, f);
    if (nfields < 4) return {FenCode::too_few_fields, 0, {}};
    if (nfields > 6) return {FenCode::too_many_fields, 0, {}};

    by_type_.fill(0);
    by_color_.fill(0);
    board_.fill(Piece{});
    blockers_.fill(0);
    checkers_ = 0;
    castling_rook_ = {};
    castling_path_.fill(0);
    castling_king_path_.fill(0);
    castling_keep_.fill(0xF);
    st_.castling = 0;
    st_.ep_square = Square::none();
    st_.chess960 = false;
    if (FenError const e = read_board(f[0]); !e.ok()) return e;
    // Side to move.
    if (f[1] == "w")
        st_.side = Color::white;
    else if (f[1] == "b")
        st_.side = Color::black;
    else
        return {FenCode::bad_side, 0, f[1]};

    bool needs960 = false;
    if (FenError const e = read_castling(f[2], needs960); !e.ok()) return e;
    st_.chess960 = chess960 || needs960;

    // The side not to move must not be in check.
    Square their_king = king_square(~st_.side);
    if (attackers_to(their_king, pieces(), st_.side)) return {FenCode::opponent_in_check, 0, {}};

    // Move counters (before en passant, which needs the check info).
    int halfmove = 0;
    int fullmove = 1;
    if (nfields >= 5 && !parse_number(f[4], 65535, halfmove))
        return {FenCode::bad_halfmove_clock, 0, f[4]};
    if (nfields >= 6 && !parse_number(f[5], 65535, fullmove))
        return {FenCode::bad_fullmove_number, 0, f[5]};
    st_.halfmove_clock = std::uint16_t(halfmove);
    st_.fullmove = std::uint16_t(fullmove == 0 ? 1 : fullmove);

    update_check_info();

    if (FenError const e = read_en_passant(f[3]); !e.ok()) return e;
    return {};
}

std::string Position::fen() const {
    std::string s;
    s.reserve(90);
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            Piece p = piece_on(Square::at(file, rank));
            if (p.empty()) {
                ++empty;
                continue;
            }
            if (empty) s += char('0' + empty);
            empty = 0;
            char ch = piece_letters[std::size_t(p.type())];
            s += p.color() == Color::black ? char(ch + 32) : ch;
        }
        if (empty) s += char('0' + empty);
        if (rank) s += '/';
    }
    s += st_.side == Color::white ? " w " : " b ";
    if (!st_.castling) s += '-';
    for (Color c : {Color::white, Color::black}) {
        for (CastleSide side : {CastleSide::king, CastleSide::queen}) {
            if (!can_castle(c, side)) continue;
            Square rook = castling_rook(c, side);
            char ch = side == CastleSide::king ? 'K' : 'Q';
            if (st_.chess960) {
                // X-FEN letter if the rook is the outermost one on its side, else its file.
                int back = rook.rank();
                Bitboard rooks = pieces(c, PieceType::rook) & (Bitboard{0xFF} << (8 * back));
                Bitboard outside = 0;
                for (int fl = 0; fl < 8; ++fl)
                    if (side == CastleSide::king ? fl > rook.file() : fl < rook.file())
                        outside |= Square::at(fl, back).bb();
                if (rooks & outside) ch = char('A' + rook.file());
            }
            s += c == Color::black ? char(ch + 32) : ch;
        }
    }
    s += ' ';
    s += st_.ep_square.ok() ? st_.ep_square.name() : std::string_view("-");
    s += ' ';
    s += std::to_string(st_.halfmove_clock);
    s += ' ';
    s += std::to_string(st_.fullmove);
    return s;
}

} // namespace pgn_iccf::chess
