// The plan of a run (see plan.hpp): the inputs are classified and walked, each job gets its
// output name, and every identity rule is checked before the runner writes a byte. The only
// way to the disk is the FileSystem interface, so the tests can build any tree (loops, hard
// links, folders that cannot be listed) in memory.
#include "plan/plan.hpp"

#include "io/compress.hpp"
#include "io/paths.hpp"
#include "plan/options.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace pgn_iccf::batch {

namespace {

namespace stdfs = std::filesystem;
using io::FileSystem;
using Kind = FileSystem::Kind;
using FileId = FileSystem::FileId;
using Status = FileSystem::Status;

std::string errno_text(int e) { return std::generic_category().message(e); }

// The error of a dangling symbolic link: written through (the file it names is created), as
// the shell's `>` does, so no reason to refuse an output.
constexpr std::string_view dangling = FileSystem::dangling;

struct FileIdHash {
    std::size_t operator()(FileId const& id) const noexcept {
        return std::hash<std::uint64_t>{}(id.inode * 0x9E3779B97F4A7C15ULL ^ id.device);
    }
};

bool has_id(Kind k) { return k == Kind::file || k == Kind::directory || k == Kind::other; }

using io::is_pgn_name;
using io::paths::is_under;
using io::paths::join;
using io::paths::tidy;

// An input as known before the output names are given: the job, and where its output goes
// relative to the output directory.
struct Source {
    Job job;
    std::string rel; // "2024/jan.pgn" (walked), "jan.pgn" (named), "stdin"
};

// Problems about single outputs (collisions, outputs that are inputs) come in floods when two
// similar trees meet in one output directory; the first few name the files, then a count.
constexpr std::size_t listed_output_problems = 10;

// One run of make_plan. The steps run in this order because each needs the previous one: the
// inputs' kinds decide directory mode; directory mode decides whether the output directory is
// skipped in walks; all inputs must be known before an output can be checked against them;
// all outputs before the rejects file.
class Planner {
public:
    Planner(PlanRequest const& request, FileSystem const& fs) : request_(request), fs_(fs) {}

    Plan make() {
        output_ = request_.output.empty() ? "-" : request_.output;
        if (!choose_suffix()) return std::move(plan_);
        std::vector<std::string> inputs = request_.inputs;
        if (inputs.empty()) inputs.emplace_back("-");
        std::vector<Status> statuses;
        statuses.reserve(inputs.size());
        bool any_directory = false;
        for (auto const& in : inputs) {
            statuses.push_back(in == "-" ? Status{} : fs_.status(in));
            any_directory = any_directory || statuses.back().kind == Kind::directory;
        }
        decide_mode(inputs.size() > 1, any_directory);
        for (std::size_t i = 0; i < inputs.size(); ++i) add_input(inputs[i], statuses[i]);
        if (plan_.directory_mode && output_usable_) name_outputs();
        if (!plan_.directory_mode) single_output();
        check_rejects();
        check_stdout();
        if (output_problems_ > listed_output_problems)
            problem({.code = PlanCode::more_output_problems,
                     .number = output_problems_ - listed_output_problems});
        for (auto& s : sources_) {
            if (s.job.size_known)
                plan_.total_size += s.job.size;
            else
                plan_.total_size_known = false;
            plan_.jobs.push_back(std::move(s.job));
        }
        // Looked at only when the rest holds: one refusal at a time.
        if (plan_.problems.empty()) check_level(request_, plan_);
        if (plan_.problems.empty()) check_closed_stdout();
        if (plan_.problems.empty()) note_unused_options(request_, plan_);
        return std::move(plan_);
    }

private:
    // An explicit suffix is checked even when no directory mode uses it: a bad option value is
    // refused whatever else is on the command line. Nothing else is planned after a bad
    // suffix, as every output name would carry it.
    bool choose_suffix() {
        explicit_suffix_ = !request_.suffix.empty();
        suffix_ = explicit_suffix_ ? request_.suffix : request_.default_suffix;
        if (explicit_suffix_ &&
            (suffix_.find('/') != std::string::npos || suffix_ == "." || suffix_ == "..")) {
            problem({.code = PlanCode::bad_suffix, .path = suffix_});
            return false;
        }
        return true;
    }

    // Directory mode is decided by the command line as given (a missing input still counts as
    // one of several), so that one file going missing never turns a directory of outputs into
    // one output file.
    void decide_mode(bool several, bool any_directory) {
        if (request_.check || output_ == "-") return;
        Status const out = fs_.status(output_);
        plan_.directory_mode =
            several || any_directory || out.kind == Kind::directory || output_.back() == '/';
        if (!plan_.directory_mode) return;
        out_dir_ = tidy(output_);
        switch (out.kind) {
        case Kind::directory:
            out_exists_ = true;
            out_id_ = out.id;
            break;
        case Kind::missing: {
            // Created with its missing parents (as mkdir -p), parents first.
            std::vector<std::string> chain{out_dir_};
            for (std::string at = out_dir_;;) {
                std::size_t const slash = at.find_last_of('/');
                if (slash == std::string::npos || slash == 0) break;
                at.resize(slash);
                Status const up = fs_.status(at);
                if (up.kind == Kind::missing) {
                    chain.push_back(at);
                    continue;
                }
                if (up.kind != Kind::directory) {
                    problem(
                        {.code = PlanCode::output_parent_not_folder, .path = output_, .other = at});
                    output_usable_ = false;
                    chain.clear();
                }
                break;
            }
            plan_.directories_to_create.insert(plan_.directories_to_create.end(), chain.rbegin(),
                                               chain.rend());
            break;
        }
        case Kind::file:
        case Kind::other:
            problem({.code = out.kind == Kind::file ? PlanCode::output_is_file
                                                    : PlanCode::output_not_folder,
                     .path = output_});
            output_usable_ = false;
            return;
        case Kind::unreadable:
            problem({.code = PlanCode::output_unreadable, .path = output_, .os_error = out.error});
            output_usable_ = false;
            return;
        }
        out_canonical_ = tidy(fs_.canonical(out_dir_));
        if (!out_exists_) planned_folders_.insert(out_canonical_);
    }

    void add_input(std::string const& in, Status const& st) {
        if (in == "-") {
            if (stdin_given_) {
                problem({.code = PlanCode::stdin_twice});
                return;
            }
            stdin_given_ = true;
            Source s;
            s.job.input = "-";
            s.job.display = "<stdin>";
            s.rel = "stdin";
            // A regular file on standard input (`- < all.pgn`) is that file: no output may be it.
            // Pipes and devices are not compared (`< /dev/null` beside --rejects /dev/null).
            Status const in_stream = fs_.stream(0);
            if (in_stream.kind == Kind::file) input_ids_.emplace(in_stream.id, sources_.size());
            sources_.push_back(std::move(s));
            return;
        }
        switch (st.kind) {
        case Kind::missing:
            plan_.unreadable.push_back(
                {.code = PlanCode::input_unreadable, .path = in, .os_error = errno_text(ENOENT)});
            return;
        case Kind::unreadable:
            plan_.unreadable.push_back(
                {.code = PlanCode::input_unreadable, .path = in, .os_error = st.error});
            return;
        case Kind::directory:
            if (output_in_input(in, st)) return;
            walk_root(in, st);
            return;
        case Kind::file:
        case Kind::other: // a FIFO or a device (<(zcat x.gz), /dev/stdin): read as a stream
            add_source(in, stdfs::path(in).filename().string(), tidy(fs_.canonical(in)), st);
            return;
        }
    }

    void add_source(std::string const& path, std::string rel, std::string canonical,
                    Status const& st) {
        Source s;
        s.job.input = path;
        s.job.display = path;
        s.job.size = st.size;
        s.job.size_known = st.kind == Kind::file;
        s.rel = std::move(rel);
        std::size_t const index = sources_.size();
        input_paths_.emplace(std::move(canonical), index);
        // The same file named twice (`a.pgn a.pgn`, two links, globs that overlap) is read
        // twice, as named; said, as it is seldom meant.
        if (auto const [at, fresh] = input_ids_.emplace(st.id, index);
            !fresh && st.kind == Kind::file)
            plan_.notes.push_back({.code = PlanCode::input_twice,
                                   .path = path,
                                   .other = sources_[at->second].job.display});
        sources_.push_back(std::move(s));
    }

    // The walk. Folders are visited in name order so that which of two links to one folder is
    // walked (and which gets the note) does not depend on readdir's order; the files are then
    // sorted by their whole relative path, which is not the visiting order ("a.pgn" sorts
    // before "a/b.pgn" though folder "a" is visited first). The output directory inside an
    // input is refused by output_in_input, by path; reached by a link inside a walk, it is
    // refused here (and not walked). Entries that cannot be followed are reported only when
    // named like an input (N07: a dangling notes.txt is nothing to read; a dangling link
    // without an ending may have named a folder, but only PGN names are inputs here). A found
    // file's canonical path is its folder's plus its name (one canonical call per folder); a
    // file that is itself a link is still known by its FileId.
    struct Found {
        std::string rel;
        std::string path;
        std::string canonical;
        Status status;
    };

    bool is_output_dir(FileId const& id) const {
        return plan_.directory_mode && out_exists_ && id == out_id_;
    }

    // The output directory must lie outside every directory input (N05): inside one, its files
    // would be skipped unseen by the walk (or, on a second run, our own outputs read back), and
    // equal to one, nothing at all would be converted. Refused by path even when the output
    // directory does not exist yet, so that a second run answers as the first.
    bool output_in_input(std::string const& dir, Status const& st) {
        if (!plan_.directory_mode || !output_usable_) return false;
        std::string const canonical = tidy(fs_.canonical(dir));
        if ((out_exists_ && st.id == out_id_) || canonical == out_canonical_) {
            output_inside_reported_ = true;
            problem({.code = PlanCode::output_is_input_folder, .path = out_dir_, .other = dir});
            return true;
        }
        if (is_under(out_canonical_, canonical)) {
            output_inside_reported_ = true;
            problem({.code = PlanCode::output_inside_input_folder, .path = out_dir_, .other = dir});
            return true;
        }
        return false;
    }

    void walk_root(std::string const& dir, Status const& st) {
        if (!walked_.insert(st.id).second) {
            plan_.notes.push_back({.code = PlanCode::already_walked, .path = dir});
            return;
        }
        std::vector<Found> found;
        std::size_t const said = plan_.unreadable.size() + plan_.notes.size();
        walk(dir, "", found);
        // A folder without an input is said (a mistyped folder is no successful run), unless
        // its walk said why already (unreadable or skipped entries, the output folder in it).
        if (found.empty() && plan_.unreadable.size() + plan_.notes.size() == said &&
            !output_inside_reported_)
            plan_.notes.push_back({.code = PlanCode::no_pgn_file, .path = dir});
        std::sort(found.begin(), found.end(),
                  [](Found const& a, Found const& b) { return a.rel < b.rel; });
        for (auto& f : found)
            add_source(f.path, std::move(f.rel), std::move(f.canonical), f.status);
    }

    void walk(std::string const& dir, std::string const& rel, std::vector<Found>& found) {
        std::vector<std::string> names;
        std::string error;
        if (!fs_.list(dir, names, error)) {
            plan_.unreadable.push_back(
                {.code = PlanCode::folder_unlistable, .path = dir, .os_error = error});
            return;
        }
        std::sort(names.begin(), names.end());
        std::string const dir_canonical = tidy(fs_.canonical(dir));
        for (auto const& name : names) {
            std::string const path = join(dir, name);
            std::string const child_rel = rel.empty() ? name : join(rel, name);
            Status const st = fs_.status(path);
            switch (st.kind) {
            case Kind::missing: // gone since the listing
                break;
            case Kind::unreadable: // only an input name is worth an error (N07)
                if (is_pgn_name(name))
                    plan_.unreadable.push_back(
                        {.code = PlanCode::entry_unreadable, .path = path, .os_error = st.error});
                break;
            case Kind::file:
                if (is_pgn_name(name))
                    found.push_back({child_rel, path, join(dir_canonical, name), st});
                break;
            case Kind::other: // reading a FIFO found by a walk could block the run forever
                if (is_pgn_name(name))
                    plan_.notes.push_back({.code = PlanCode::not_regular_file, .path = path});
                break;
            case Kind::directory:
                if (is_output_dir(st.id)) { // reached through a symbolic link
                    if (!output_inside_reported_)
                        problem({.code = PlanCode::output_inside_by_link,
                                 .path = out_dir_,
                                 .other = path});
                    output_inside_reported_ = true;
                    break;
                }
                if (!walked_.insert(st.id).second) {
                    plan_.notes.push_back({.code = PlanCode::already_walked, .path = path});
                    break;
                }
                walk(path, child_rel, found);
                break;
            }
        }
    }

    // Output names (plan.hpp): the PGN ending, or failing that the compression extension, is
    // replaced by the suffix; the default suffix keeps the input's compression, an explicit
    // one brings its own.
    std::string output_name(std::string_view name) const {
        io::NameEnding const* e = io::name_ending(name);
        std::string s(name.substr(0, name.size() - (e != nullptr ? e->text.size() : 0)));
        s += suffix_;
        if (!explicit_suffix_ && e != nullptr) s += io::extension(e->compression);
        return s;
    }

    // Directory mode. Each output is compared by its canonical path (two spellings of one
    // name, or a link inside the output directory) and, when it exists already, by FileId (a
    // hard link to an input). A missing output's canonical path is its folder's plus its name,
    // with the folder resolved once per folder: a 100,000-file tree costs at most one stat per
    // output, not a weakly_canonical each.
    void name_outputs() {
        for (std::size_t i = 0; i < sources_.size(); ++i) {
            Source& s = sources_[i];
            std::size_t const slash = s.rel.rfind('/');
            std::string const folder_rel = slash == std::string::npos ? "" : s.rel.substr(0, slash);
            std::string_view const name =
                std::string_view(s.rel).substr(slash == std::string::npos ? 0 : slash + 1);
            std::string const folder = folder_rel.empty() ? out_dir_ : join(out_dir_, folder_rel);
            std::string const oname = output_name(name);
            s.job.output = join(folder, oname);
            s.job.output_compression = io::compression_for_name(oname);
            plan_folder(folder_rel);
            check_output(i, folder_rel, folder, oname);
        }
    }

    // Folders to create, parents first (a folder is planned after its parent by the
    // recursion). Below a folder that is to be created nothing exists, so neither its
    // sub-folders nor the outputs in it need a stat: a first run into a new output directory
    // costs no stat per output at all.
    void plan_folder(std::string const& folder_rel) {
        if (folder_rel.empty() || !folders_seen_.insert(folder_rel).second) return;
        std::size_t const slash = folder_rel.rfind('/');
        std::string const parent = slash == std::string::npos ? "" : folder_rel.substr(0, slash);
        plan_folder(parent);
        if (folders_blocked_.count(parent) != 0) { // reported once, at the file in the way
            folders_blocked_.insert(folder_rel);
            return;
        }
        std::string const path = join(out_dir_, folder_rel);
        Status const st = folder_to_be_created(parent) ? Status{} : fs_.status(path);
        switch (st.kind) {
        case Kind::missing:
            plan_.directories_to_create.push_back(path);
            folders_created_.insert(folder_rel);
            planned_folders_.insert(join(out_canonical_, folder_rel));
            break;
        case Kind::directory:
            break;
        case Kind::file:
        case Kind::other:
            output_problem({.code = PlanCode::output_folder_is_file, .path = path});
            folders_blocked_.insert(folder_rel);
            break;
        case Kind::unreadable:
            output_problem(
                {.code = PlanCode::output_folder_unreadable, .path = path, .os_error = st.error});
            folders_blocked_.insert(folder_rel);
            break;
        }
    }

    bool folder_to_be_created(std::string const& folder_rel) const {
        return folder_rel.empty() ? !out_exists_ : folders_created_.count(folder_rel) != 0;
    }

    std::string const& folder_canonical(std::string const& folder) {
        auto it = folder_canonicals_.find(folder);
        if (it == folder_canonicals_.end())
            it = folder_canonicals_.emplace(folder, tidy(fs_.canonical(folder))).first;
        return it->second;
    }

    void check_output(std::size_t index, std::string const& folder_rel, std::string const& folder,
                      std::string const& name) {
        std::string const& output = sources_[index].job.output;
        Status const st = folder_to_be_created(folder_rel) ? Status{} : fs_.status(output);
        std::string const canonical = st.kind == Kind::missing
                                          ? join(folder_canonical(folder), name)
                                          : tidy(fs_.canonical(output));
        if (st.kind == Kind::directory)
            output_problem({.code = PlanCode::output_is_folder, .path = output});
        if (st.kind == Kind::unreadable && st.error != dangling && // a link loop, no permission
            folders_blocked_.count(folder_rel) == 0)
            output_problem({.code = PlanCode::mirrored_output_unreadable,
                            .path = output,
                            .os_error = st.error});
        auto const same_id = has_id(st.kind) ? input_ids_.find(st.id) : input_ids_.end();
        auto const same_path = input_paths_.find(canonical);
        if (same_id != input_ids_.end())
            output_problem({.code = PlanCode::output_is_input,
                            .path = output,
                            .other = sources_[same_id->second].job.display});
        else if (same_path != input_paths_.end())
            output_problem({.code = PlanCode::output_is_input,
                            .path = output,
                            .other = sources_[same_path->second].job.display});
        if (!is_under(canonical, out_canonical_))
            output_problem({.code = PlanCode::output_outside, .path = output, .other = out_dir_});
        auto const [first, fresh] = output_paths_.emplace(canonical, index);
        if (!fresh)
            output_problem({.code = PlanCode::outputs_collide,
                            .path = sources_[first->second].job.output,
                            .other = sources_[first->second].job.display,
                            .third = sources_[index].job.display});
        if (has_id(st.kind)) {
            auto const [same, first_id] = output_ids_.emplace(st.id, index);
            if (!first_id && fresh)
                output_problem({.code = PlanCode::outputs_hard_linked,
                                .path = output,
                                .other = sources_[same->second].job.output});
        }
    }

    void output_problem(PlanProblem p) {
        if (++output_problems_ <= listed_output_problems) problem(std::move(p));
    }

    void problem(PlanProblem p) { plan_.problems.push_back(std::move(p)); }

    // Single output mode: one output file (or standard output, or none with --check).
    void single_output() {
        if (request_.check) return;
        plan_.output = output_;
        plan_.output_compression = io::compression_for_name(output_);
        if (output_ == "-") return;
        Status const st = fs_.status(output_);
        single_canonical_ = tidy(fs_.canonical(output_));
        if (has_id(st.kind)) {
            single_id_ = st.id;
            single_identified_ = true;
        }
        if (auto const* input = input_named(single_canonical_, st))
            problem({.code = PlanCode::output_is_input, .path = output_, .other = *input});
    }

    // The display name of the input that is the file `canonical` with status `st`, if any.
    std::string const* input_named(std::string const& canonical, Status const& st) const {
        if (has_id(st.kind)) {
            auto const it = input_ids_.find(st.id);
            if (it != input_ids_.end()) return &sources_[it->second].job.display;
        }
        auto const it = input_paths_.find(canonical);
        return it != input_paths_.end() ? &sources_[it->second].job.display : nullptr;
    }

    // Standard output closed at start (now /dev/null): nothing may be written there.
    void check_closed_stdout() {
        if (!request_.stdout_closed) return;
        if (plan_.rejects == "-")
            problem({.code = PlanCode::rejects_stdout_closed});
        else if (!plan_.directory_mode && plan_.output == "-")
            problem({.code = PlanCode::stdout_closed});
    }

    // The rejects file is written next to the outputs and must be none of them nor an input.
    // "-" is standard output, which only the single output may also claim (and check_stdout
    // compares by FileId). In directory mode it must not be the output folder or one to be
    // created, and its own folder must exist or be planned: nothing is created for a run that
    // cannot open its rejects file (R14b).
    void check_rejects() {
        std::string const& rejects = request_.rejects;
        if (rejects.empty()) return;
        plan_.rejects = rejects;
        plan_.rejects_compression = io::compression_for_name(rejects);
        if (rejects == "-") {
            if (!request_.check && !plan_.directory_mode && output_ == "-")
                problem({.code = PlanCode::rejects_and_output_stdout});
            return;
        }
        Status const st = fs_.status(rejects);
        std::string const canonical = tidy(fs_.canonical(rejects));
        if (plan_.directory_mode && output_usable_ && planned_folders_.count(canonical) != 0) {
            if (canonical == out_canonical_)
                problem({.code = PlanCode::rejects_is_output_folder,
                         .path = rejects,
                         .other = out_dir_});
            else
                problem({.code = PlanCode::rejects_is_needed_folder, .path = rejects});
            return;
        }
        if (st.kind == Kind::directory) {
            problem({.code = PlanCode::rejects_is_folder, .path = rejects});
            return;
        }
        if (st.kind == Kind::unreadable && st.error != dangling) { // "r.pgn/", a link loop
            problem({.code = PlanCode::rejects_unreadable, .path = rejects, .os_error = st.error});
            return;
        }
        bool const identified = has_id(st.kind);
        if (identified) {
            rejects_id_ = st.id;
            rejects_identified_ = true;
        }
        if (plan_.directory_mode && (st.kind == Kind::missing || st.kind == Kind::unreadable)) {
            std::size_t const slash = canonical.rfind('/');
            std::string const folder = slash == 0 ? "/" : canonical.substr(0, slash);
            if (planned_folders_.count(folder) == 0 && fs_.status(folder).kind != Kind::directory)
                problem({.code = PlanCode::rejects_no_folder, .path = rejects, .other = folder});
        }
        bool same_output = false;
        if (plan_.directory_mode) {
            same_output = output_paths_.count(canonical) != 0 ||
                          (identified && output_ids_.count(st.id) != 0);
        } else if (!request_.check && output_ != "-") {
            same_output = canonical == single_canonical_ ||
                          (identified && single_identified_ && st.id == single_id_);
        }
        // Both may discard: nothing written to /dev/null can be mixed up.
        if (canonical == "/dev/null") same_output = false;
        if (input_named(canonical, st) != nullptr)
            problem({.code = PlanCode::rejects_is_input, .path = rejects});
        else if (same_output)
            problem({.code = PlanCode::rejects_is_output, .path = rejects});
    }

    // Standard output, when written (-o -, or --rejects -), is compared by its FileId when it
    // is a regular file (`>> all.pgn`): an input that is it would be read while it grows, for
    // ever (N14); another output that is it would be renamed over what was written to it
    // (N15). A terminal, a pipe or /dev/null is never the same file as a named one that
    // matters.
    void check_stdout() {
        // Standard error, always written, appended to an input (`2>> a.pgn`): every warning
        // about the text it adds would be read back as more text, with --all-warnings for ever.
        Status const err = fs_.stream(2);
        if (err.kind == Kind::file) {
            auto const input = input_ids_.find(err.id);
            if (input != input_ids_.end())
                problem({.code = PlanCode::input_is_stderr,
                         .path = sources_[input->second].job.display});
        }
        bool const single = !request_.check && !plan_.directory_mode && output_ == "-";
        bool const rejects = request_.rejects == "-";
        if (!single && !rejects) return;
        Status const out = fs_.stream(1);
        if (out.kind != Kind::file) return;
        auto const input = input_ids_.find(out.id);
        if (input != input_ids_.end()) {
            problem(
                {.code = PlanCode::input_is_stdout, .path = sources_[input->second].job.display});
            return;
        }
        if (single && rejects_identified_ && rejects_id_ == out.id)
            problem({.code = PlanCode::rejects_is_stdout, .path = request_.rejects});
        if (rejects && !plan_.directory_mode && single_identified_ && single_id_ == out.id)
            problem({.code = PlanCode::output_is_stdout, .path = output_});
        if (rejects && plan_.directory_mode) {
            auto const same = output_ids_.find(out.id);
            if (same != output_ids_.end())
                problem({.code = PlanCode::mirrored_output_is_stdout,
                         .path = sources_[same->second].job.output});
        }
    }

    PlanRequest const& request_;
    FileSystem const& fs_;
    Plan plan_;
    std::string output_; // request's output, "-" for an empty one
    std::string suffix_;
    bool explicit_suffix_ = false;
    bool stdin_given_ = false;

    // Directory mode: the output directory.
    std::string out_dir_; // as given, without trailing '/'
    std::string out_canonical_;
    FileId out_id_{};
    bool out_exists_ = false;
    bool output_usable_ = true;

    // Single output mode: the output file's identity; the rejects file's.
    std::string single_canonical_;
    FileId single_id_{};
    bool single_identified_ = false;
    FileId rejects_id_{};
    bool rejects_identified_ = false;
    bool output_inside_reported_ = false;

    std::vector<Source> sources_;
    std::unordered_set<FileId, FileIdHash> walked_;
    std::unordered_map<std::string, std::size_t> input_paths_; // canonical -> sources_ index
    std::unordered_map<FileId, std::size_t, FileIdHash> input_ids_;
    std::unordered_map<std::string, std::size_t> output_paths_;
    std::unordered_map<FileId, std::size_t, FileIdHash> output_ids_;
    std::unordered_set<std::string> folders_seen_;    // relative to the output directory
    std::unordered_set<std::string> folders_created_; // the subset to be created
    std::unordered_set<std::string> folders_blocked_; // a file is in the way
    std::unordered_set<std::string> planned_folders_; // canonical paths of folders to create
    std::unordered_map<std::string, std::string> folder_canonicals_;
    std::size_t output_problems_ = 0;
};

} // namespace

Plan make_plan(PlanRequest const& request, FileSystem const& fs) {
    return Planner(request, fs).make();
}

} // namespace pgn_iccf::batch
