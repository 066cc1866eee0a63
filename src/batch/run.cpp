#include "batch/run.hpp"

#include "pgn/game_reader.hpp"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>
#include <unistd.h>

namespace pgn_iccf::batch {

namespace fs = std::filesystem;

namespace {

// An output file written under a temporary name in the same directory and renamed into
// place by commit(); standard output when the path is "-". Failure is sticky.
class Output {
public:
    bool open(std::string const& path, std::string& error) {
        path_ = path;
        if (path == "-") {
            file_ = stdout;
            return true;
        }
        std::error_code ec;
        if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
            // A device or pipe (/dev/null, a FIFO): written in place, nothing to rename.
            file_ = std::fopen(path.c_str(), "wb");
            if (!file_) {
                error = "cannot write " + path + ": " + std::strerror(errno);
                return false;
            }
            direct_ = true;
            return true;
        }
        temp_ = path + ".tmp-" + std::to_string(::getpid());
        file_ = std::fopen(temp_.c_str(), "wb");
        if (!file_) {
            error = "cannot write " + path + ": " + std::strerror(errno);
            return false;
        }
        return true;
    }
    bool write(std::string_view bytes) {
        if (!file_ || failed_) return false;
        if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
            failed_ = true;
        return !failed_;
    }
    // Flushes and renames into place; false (with error) on any failure.
    bool commit(std::string& error) {
        if (!file_) return true;
        bool ok = !failed_ && std::fflush(file_) == 0;
        if (file_ != stdout) {
            ok = std::fclose(file_) == 0 && ok;
            file_ = nullptr;
            if (direct_) {
                if (!ok) error = "cannot write " + path_ + ": " + std::strerror(errno);
                return ok;
            }
            if (ok && std::rename(temp_.c_str(), path_.c_str()) != 0) ok = false;
            if (!ok) {
                error = "cannot write " + path_ + ": " + std::strerror(errno);
                std::remove(temp_.c_str());
            }
        } else {
            file_ = nullptr;
            if (!ok) error = "cannot write to standard output";
        }
        return ok;
    }
    void abandon() {
        if (file_ && file_ != stdout) {
            std::fclose(file_);
            if (!direct_) std::remove(temp_.c_str());
        }
        file_ = nullptr;
    }
    ~Output() { abandon(); }

private:
    std::string path_;
    std::string temp_;
    std::FILE* file_ = nullptr;
    bool failed_ = false;
    bool direct_ = false;
};

std::string default_suffix(notation::Notation n) {
    switch (n) {
    case notation::Notation::numeric:
        return ".iccf.pgn";
    case notation::Notation::san:
        return ".san.pgn";
    case notation::Notation::lan:
        return ".lan.pgn";
    }
    return ".pgn";
}

bool same_file(std::string const& a, std::string const& b) {
    std::error_code ec;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

class Progress {
public:
    Progress(bool enabled, std::FILE* err) : enabled_(enabled), err_(err) {}
    void update(std::uint64_t games, std::uint64_t bytes) {
        if (!enabled_ || (games & 255U) != 0) return;
        auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::milliseconds(250)) return;
        last_ = now;
        std::fprintf(err_, "\rpgn-iccf: %llu games, %.1f MB read", (unsigned long long)games,
                     double(bytes) / 1e6);
        std::fflush(err_);
        shown_ = true;
    }
    void clear() {
        if (shown_) std::fprintf(err_, "\r\033[K");
        shown_ = false;
    }

private:
    bool enabled_;
    std::FILE* err_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point last_{};
};

} // namespace

int exit_status(Summary const& s) {
    if (s.io_failure) return 2;
    if (s.rejected > 0 || s.kept_broken > 0) return 1;
    return 0;
}

std::string format_summary(Summary const& s) {
    char buf[512];
    double mb = double(s.bytes) / 1e6;
    double secs = s.seconds > 0 ? s.seconds : 1e-9;
    std::snprintf(buf, sizeof buf,
                  "pgn-iccf: %llu game%s read: %llu converted, %llu rejected, %llu kept broken; "
                  "%llu move%s; %llu error%s, %llu warning%s; %.2f s, %.1f MB/s, %.0f games/s",
                  (unsigned long long)s.games, s.games == 1 ? "" : "s",
                  (unsigned long long)s.converted, (unsigned long long)s.rejected,
                  (unsigned long long)s.kept_broken, (unsigned long long)s.moves,
                  s.moves == 1 ? "" : "s", (unsigned long long)s.errors, s.errors == 1 ? "" : "s",
                  (unsigned long long)s.warnings, s.warnings == 1 ? "" : "s", s.seconds, mb / secs,
                  double(s.games) / secs);
    return buf;
}

Summary run(RunOptions const& options, std::FILE* err) {
    auto const t0 = std::chrono::steady_clock::now();
    Summary sum;
    std::vector<std::string> inputs = options.inputs;
    if (inputs.empty()) inputs.push_back("-");

    // Where each input's output goes.
    bool dir_mode = inputs.size() > 1 && !options.check && options.output != "-";
    std::string suffix =
        options.suffix.empty() ? default_suffix(options.convert.to) : options.suffix;
    if (dir_mode) {
        std::error_code ec;
        fs::create_directories(options.output, ec);
        if (!fs::is_directory(options.output)) {
            std::fprintf(err,
                         "pgn-iccf: error: with several inputs, -o must name a directory: %s\n",
                         options.output.c_str());
            sum.io_failure = true;
            return sum;
        }
    }

    Output rejects;
    std::string error;
    if (!options.rejects.empty() && !options.check && options.output != "-" &&
        (options.rejects == options.output || same_file(options.rejects, options.output))) {
        std::fprintf(err, "pgn-iccf: error: --rejects and -o name the same file: %s\n",
                     options.rejects.c_str());
        sum.io_failure = true;
        return sum;
    }
    if (!options.rejects.empty()) {
        for (auto const& in : inputs) {
            if (in != "-" && same_file(in, options.rejects)) {
                std::fprintf(err, "pgn-iccf: error: the rejects file %s is an input file\n",
                             options.rejects.c_str());
                sum.io_failure = true;
                return sum;
            }
        }
        if (!rejects.open(options.rejects, error)) {
            std::fprintf(err, "pgn-iccf: error: %s\n", error.c_str());
            sum.io_failure = true;
            return sum;
        }
    }

    pgn::ConvertOptions copt = options.convert;
    copt.check_only = options.check;
    pgn::Converter converter(copt);
    Progress progress(!options.quiet && (options.progress || ::isatty(fileno(err))), err);

    std::unique_ptr<Output> single;
    if (!dir_mode && !options.check) {
        for (auto const& in : inputs) {
            if (in != "-" && options.output != "-" && same_file(in, options.output)) {
                std::fprintf(err, "pgn-iccf: error: the output %s is an input file\n",
                             options.output.c_str());
                sum.io_failure = true;
                return sum;
            }
        }
        single = std::make_unique<Output>();
        if (!single->open(options.output, error)) {
            std::fprintf(err, "pgn-iccf: error: %s\n", error.c_str());
            sum.io_failure = true;
            return sum;
        }
    }

    std::string out;
    out.reserve(std::size_t{2} << 20);
    std::string reject_bytes;

    for (auto const& in : inputs) {
        std::unique_ptr<pgn::ByteSource> source;
        std::string name = in == "-" ? "<stdin>" : in;
        if (in == "-") {
            source = pgn::open_stdin();
        } else {
            std::error_code ec;
            if (fs::is_directory(in, ec)) {
                std::fprintf(err,
                             "pgn-iccf: error: %s is a directory; directory input is not "
                             "supported yet: give the files\n",
                             in.c_str());
                sum.io_failure = true;
                continue;
            }
            source = pgn::open_file(in, error);
            if (!source) {
                std::fprintf(err, "pgn-iccf: error: %s\n", error.c_str());
                sum.io_failure = true;
                continue;
            }
        }
        ++sum.files;

        Output* target = single.get();
        std::unique_ptr<Output> per_file;
        if (dir_mode) {
            fs::path p(in);
            std::string stem = p.filename().string();
            for (std::string_view ext : {".pgn", ".PGN", ".Pgn"})
                if (stem.size() > ext.size() && stem.ends_with(ext)) {
                    stem.resize(stem.size() - ext.size());
                    break;
                }
            std::string path = (fs::path(options.output) / (stem + suffix)).string();
            if (same_file(in, path)) {
                std::fprintf(err, "pgn-iccf: error: output %s would overwrite its input\n",
                             path.c_str());
                sum.io_failure = true;
                continue;
            }
            per_file = std::make_unique<Output>();
            if (!per_file->open(path, error)) {
                std::fprintf(err, "pgn-iccf: error: %s\n", error.c_str());
                sum.io_failure = true;
                continue;
            }
            target = per_file.get();
        }

        pgn::GameReader reader(*source, options.chunk_size);
        ast::RawGame game;
        while (reader.next(game)) {
            ++sum.games;
            pgn::GameReport r = converter.convert(game, name, out);
            sum.moves += r.moves;
            sum.errors += std::uint64_t(r.errors);
            sum.warnings += std::uint64_t(r.warnings);
            if (!r.messages.empty()) {
                progress.clear();
                std::fwrite(r.messages.data(), 1, r.messages.size(), err);
            }
            switch (r.status) {
            case pgn::GameStatus::converted:
                ++sum.converted;
                break;
            case pgn::GameStatus::kept_broken:
                ++sum.kept_broken;
                break;
            case pgn::GameStatus::rejected:
                ++sum.rejected;
                break;
            }
            // Every game that was not converted in full goes to the rejects file as read
            // (a kept-broken game too: it is written, but only up to its bad move).
            if (r.status != pgn::GameStatus::converted && !options.rejects.empty()) {
                reject_bytes.assign(game.bytes);
                // Keep games apart in the rejects file even when the input's last game
                // had no line end.
                if (!reject_bytes.empty() && reject_bytes.back() != '\n')
                    reject_bytes.push_back('\n');
                if (!rejects.write(reject_bytes)) sum.io_failure = true;
            }
            if (out.size() >= (std::size_t{1} << 20)) {
                if (target && !target->write(out)) sum.io_failure = true;
                out.clear();
            }
            progress.update(sum.games, sum.bytes + reader.bytes_read());
        }
        sum.bytes += reader.bytes_read();
        if (!reader.io_error().empty()) {
            progress.clear();
            std::fprintf(err, "pgn-iccf: error: %s: %s\n", name.c_str(), reader.io_error().c_str());
            sum.io_failure = true;
        }
        if (target && !target->write(out)) sum.io_failure = true;
        out.clear();
        if (per_file && !per_file->commit(error)) {
            std::fprintf(err, "pgn-iccf: error: %s\n", error.c_str());
            sum.io_failure = true;
        }
    }
    if (single && !single->commit(error)) {
        std::fprintf(err, "pgn-iccf: error: %s\n", error.c_str());
        sum.io_failure = true;
    }
    if (!options.rejects.empty() && !rejects.commit(error)) {
        std::fprintf(err, "pgn-iccf: error: %s\n", error.c_str());
        sum.io_failure = true;
    }
    progress.clear();
    sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!options.quiet) std::fprintf(err, "%s\n", format_summary(sum).c_str());
    return sum;
}

} // namespace pgn_iccf::batch
