// The report of a run (report.hpp): the exit status, the summary as text and as JSON, and the
// Report that writes diagnostics, per-file lines and the progress line to standard error.
#include "report/report.hpp"

#include "report/terminal.hpp"

#include <algorithm>
#include <cinttypes>

namespace pgn_iccf::report {

int exit_status(Summary const& s) {
    if (s.io_failure) return 2;
    if (s.rejected > 0 || s.kept_broken > 0) return 1;
    return 0;
}

std::string format_summary(Summary const& s) {
    char buf[512];
    double const mb = double(s.bytes) / 1e6;
    double const secs = s.seconds > 0 ? s.seconds : 1e-9;
    std::snprintf(buf, sizeof buf,
                  "pgn-iccf: %" PRIu64 " game%s read: %" PRIu64 " converted, %" PRIu64
                  " rejected, %" PRIu64 " kept broken; %" PRIu64 " move%s; %" PRIu64
                  " error%s, %" PRIu64 " warning%s; %.2f s, %.1f MB/s, %.0f games/s",
                  s.games, s.games == 1 ? "" : "s", s.converted, s.rejected, s.kept_broken, s.moves,
                  s.moves == 1 ? "" : "s", s.errors, s.errors == 1 ? "" : "s", s.warnings,
                  s.warnings == 1 ? "" : "s", s.seconds, mb / secs, double(s.games) / secs);
    std::string line = buf;
    if (s.corrected > 0) {
        std::snprintf(buf, sizeof buf, "; %" PRIu64 " move%s corrected", s.corrected,
                      s.corrected == 1 ? "" : "s");
        line += buf;
    }
    if (s.files > 1 || s.unreadable > 0) {
        std::snprintf(buf, sizeof buf, "; %" PRIu64 " file%s", s.files, s.files == 1 ? "" : "s");
        line += buf;
        if (s.unreadable > 0) {
            std::snprintf(buf, sizeof buf, ", %" PRIu64 " unreadable", s.unreadable);
            line += buf;
        }
    }
    return line;
}

std::string format_warning_kinds(Summary const& s) {
    if (s.warnings == 0 || s.warning_kinds.empty()) return {};
    auto kinds = s.warning_kinds;
    std::stable_sort(kinds.begin(), kinds.end(),
                     [](auto const& a, auto const& b) { return a.second > b.second; });
    std::string text = "pgn-iccf: warnings by kind:\n";
    char buf[64];
    for (auto const& [kind, n] : kinds) {
        std::snprintf(buf, sizeof buf, "pgn-iccf: %8" PRIu64 "  ", n);
        text += buf;
        text += fold_wording(kind);
        text += '\n';
    }
    return text;
}

std::string format_summary_json(Summary const& s) {
    auto field = [](std::string& out, char const* name, std::uint64_t n) {
        out += ",\"";
        out += name;
        out += "\":" + std::to_string(n);
    };
    std::string j = "{\"summary\":{\"games\":" + std::to_string(s.games);
    field(j, "converted", s.converted);
    field(j, "rejected", s.rejected);
    field(j, "kept_broken", s.kept_broken);
    field(j, "moves", s.moves);
    field(j, "errors", s.errors);
    field(j, "warnings", s.warnings);
    field(j, "corrected", s.corrected);
    field(j, "files", s.files);
    field(j, "unreadable", s.unreadable);
    field(j, "bytes", s.bytes);
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.3f", s.seconds);
    j += ",\"seconds\":";
    j += secs;
    j += ",\"exit_status\":" + std::to_string(exit_status(s));
    j += ",\"warnings_by_kind\":[";
    auto kinds = s.warning_kinds;
    std::stable_sort(kinds.begin(), kinds.end(),
                     [](auto const& a, auto const& b) { return a.second > b.second; });
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        j += i == 0 ? "{\"code\":" : ",{\"code\":";
        append_json_string(j, fold_name(kinds[i].first));
        j += ",\"kind\":";
        append_json_string(j, fold_wording(kinds[i].first));
        j += ",\"count\":" + std::to_string(kinds[i].second) + "}";
    }
    j += "]}}\n";
    return j;
}

Report::Report(std::FILE* err, Options const& options)
    : err_(err), opt_(options), start_(std::chrono::steady_clock::now()) {}

void Report::put(std::string_view text) {
    clear_progress();
    std::fwrite(text.data(), 1, text.size(), err_);
    std::fflush(err_);
}

// Messages of this layer quote file names and I/O errors: escaped, never cut (see
// report/terminal.hpp); in JSON, whole.
void Report::message(std::string_view severity, std::string_view message, std::string_view file) {
    std::string line;
    if (json()) {
        line = "{\"file\":";
        if (file.empty())
            line += "null";
        else
            append_json_string(line, file);
        line += ",\"severity\":\"";
        line += severity;
        line += "\",\"text\":";
        append_json_string(line, message);
        line += "}\n";
    } else {
        line = "pgn-iccf: ";
        line += severity;
        line += ": ";
        append_terminal_safe(line, message, no_cut);
        line += '\n';
    }
    put(line);
}

void Report::error(std::string_view message, std::string_view file) {
    this->message("error", message, file);
}

void Report::note(std::string_view message, std::string_view file) {
    if (!opt_.quiet) this->message("note", message, file);
}

void Report::diagnostics(std::string_view lines) {
    if (!lines.empty()) put(lines);
}

void Report::folded(std::string_view input, FoldKey kind, std::uint64_t more) {
    std::string line;
    if (json()) {
        line = "{\"folded\":{\"file\":";
        append_json_string(line, input);
        line += ",\"code\":";
        append_json_string(line, fold_name(kind));
        line += ",\"kind\":";
        append_json_string(line, fold_wording(kind));
        line += ",\"more\":" + std::to_string(more) + "}}\n";
        put(line);
        return;
    }
    append_terminal_safe(line, input, no_cut);
    line += ": ... and " + std::to_string(more) + " more warning";
    line += more == 1 ? " like this (" : "s like this (";
    line += fold_wording(kind);
    line += "); --all-warnings shows every one\n";
    put(line);
}

void Report::file_done(FileLine const& f) {
    if (opt_.quiet || !opt_.file_lines) return;
    if (json()) {
        std::string line = "{\"file_done\":{\"input\":";
        append_json_string(line, f.input);
        line += ",\"output\":";
        if (f.output.empty())
            line += "null";
        else
            append_json_string(line, f.output);
        line += ",\"games\":" + std::to_string(f.games) +
                ",\"rejected\":" + std::to_string(f.rejected) +
                ",\"kept_broken\":" + std::to_string(f.kept_broken) +
                ",\"errors\":" + std::to_string(f.errors) +
                ",\"warnings\":" + std::to_string(f.warnings) + "}}\n";
        put(line);
        return;
    }
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  ": %" PRIu64 " game%s, %" PRIu64 " rejected, %" PRIu64 " kept broken, %" PRIu64
                  " error%s, %" PRIu64 " warning%s\n",
                  f.games, f.games == 1 ? "" : "s", f.rejected, f.kept_broken, f.errors,
                  f.errors == 1 ? "" : "s", f.warnings, f.warnings == 1 ? "" : "s");
    std::string line = "pgn-iccf: ";
    append_terminal_safe(line, f.input, no_cut);
    if (!f.output.empty()) {
        line += " -> ";
        append_terminal_safe(line, f.output, no_cut);
    }
    line += buf;
    put(line);
}

void Report::progress(std::uint64_t files_done, std::uint64_t consumed, std::uint64_t bytes,
                      std::uint64_t games) {
    if (opt_.quiet || !opt_.progress || json()) return;
    auto const now = std::chrono::steady_clock::now();
    if (opt_.terminal ? shown_ && now - last_ < std::chrono::milliseconds(250)
                      : logged_ && now - last_ < log_interval)
        return;
    last_ = now;
    double const secs = std::chrono::duration<double>(now - start_).count();
    double const rate = secs > 0 ? double(bytes) / 1e6 / secs : 0;
    char buf[256];
    int n = std::snprintf(buf, sizeof buf, "%spgn-iccf: ", opt_.terminal ? "\r" : "");
    auto add = [&](char const* fmt, auto... args) {
        if (n >= 0 && std::size_t(n) < sizeof buf)
            n += std::snprintf(buf + n, sizeof buf - std::size_t(n), fmt, args...);
    };
    if (opt_.files > 1) add("file %" PRIu64 "/%" PRIu64 ", ", files_done, opt_.files);
    add("%.1f MB, %" PRIu64 " games, %.1f MB/s", double(bytes) / 1e6, games, rate);
    if (opt_.total > 0 && consumed > 0 && consumed <= opt_.total) {
        double const done = double(consumed) / double(opt_.total);
        double const eta = secs / done - secs;
        add(", %.0f%%", done * 100);
        if (secs >= 1 && done > 0.001) add(", ETA %d:%02d", int(eta) / 60, int(eta) % 60);
    }
    // The escape is not the format: clang -Wformat-security.
    add("%s", opt_.terminal ? "\033[K" : "\n");
    std::fwrite(buf, 1, std::min(std::size_t(n > 0 ? n : 0), sizeof buf - 1), err_);
    std::fflush(err_);
    (opt_.terminal ? shown_ : logged_) = true;
}

void Report::clear_progress() {
    if (!shown_) return;
    std::fputs("\r\033[K", err_);
    shown_ = false;
}

void Report::summary(Summary const& s) {
    clear_progress();
    if (opt_.quiet) return;
    if (json()) {
        put(format_summary_json(s));
        return;
    }
    std::string line = format_summary(s);
    line += '\n';
    line += format_warning_kinds(s);
    put(line);
}

} // namespace pgn_iccf::report
