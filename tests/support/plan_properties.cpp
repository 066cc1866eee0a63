// The plan's properties (src/plan/plan.hpp; fuzz target `plan`): the fuzz input builds a
// tree of files, folders, FIFOs, hard links and symbolic links (dangling, looping, relative)
// on the in-memory file system of tests/support/fake_file_system.hpp, a command line (inputs,
// -o, --rejects, --check, --suffix) and what standard input and output are opened on; then
// make_plan must not crash, and a plan without problems must hold, by an independent look at
// the tree:
// - no input is an output (canonical path or FileId; standard input and output by FileId when
//   they are regular files), and no two outputs are one file;
// - the output folder is no directory input and lies inside none;
// - every folder an output or the rejects file needs exists or is planned, parents first, and
//   the rejects file is no folder: the runner creates nothing it cannot use;
// - every PGN file reachable from a directory input, and every file named, is planned
//   exactly once; nothing else is planned.
// A plan with problems is refused whole by the runner before it creates anything (run.cpp),
// so only the absence of a crash is checked then.
#include "support/fake_file_system.hpp"
#include "support/properties.hpp"

#include "plan/plan.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::properties {

namespace {

using io::FileSystem;
using Kind = FileSystem::Kind;
using FileId = FileSystem::FileId;
using test::FakeFileSystem;

// The fuzz input, a byte at a time; zeros past its end.
struct Bytes {
    std::string_view b;
    std::size_t i = 0;
    unsigned next() { return i < b.size() ? static_cast<unsigned char>(b[i++]) : 0U; }
    unsigned pick(std::size_t n) { return n == 0 ? 0U : next() % static_cast<unsigned>(n); }
};

constexpr std::array<std::string_view, 14> names{
    "a.pgn", "B.PGN", "c.pgn.gz", "d.pgn.zst", "e.pgn.bz2", "notes.txt", "a.iccf.pgn",
    "x",     "sub",   "out",      "r.pgn",     "a",         "all.pgn",   "stdin.iccf.pgn"};

std::string join(std::string const& dir, std::string_view name) {
    return dir.empty() ? std::string(name) : dir + "/" + std::string(name);
}

bool pgn_name(std::string const& name) {
    auto ends = [&](std::string_view tail) {
        if (name.size() < tail.size()) return false;
        for (std::size_t i = 0; i < tail.size(); ++i) {
            char c = name[name.size() - tail.size() + i];
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
            if (c != tail[i]) return false;
        }
        return true;
    };
    return ends(".pgn") || ends(".pgn.gz") || ends(".pgn.bz2") || ends(".pgn.zst");
}

bool has_id(Kind k) { return k == Kind::file || k == Kind::directory || k == Kind::other; }

bool under(std::string const& path, std::string const& dir) {
    return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                           (dir == "/" || path[dir.size()] == '/'));
}

std::string parent(std::string const& canonical) {
    std::size_t const slash = canonical.rfind('/');
    return slash == 0 ? "/" : canonical.substr(0, slash);
}

// A file the run reads or writes: its canonical path ("" for a standard stream) and FileId.
struct Ident {
    std::string what;
    std::string canonical;
    bool identified = false;
    FileId id{};
};

Ident ident(FakeFileSystem const& fs, std::string const& what, std::string const& path) {
    Ident i{what, fs.canonical(path), false, {}};
    FileSystem::Status const st = fs.status(path);
    if (has_id(st.kind)) {
        i.identified = true;
        i.id = st.id;
    }
    return i;
}

bool same(Ident const& a, Ident const& b) {
    return (!a.canonical.empty() && a.canonical == b.canonical) ||
           (a.identified && b.identified && a.id == b.id);
}

// The PGN files of a directory input, walked independently of the plan: links followed, each
// folder (by FileId) once.
void walk(FakeFileSystem const& fs, std::string const& dir, std::set<std::string>& files,
          std::set<std::pair<std::uint64_t, std::uint64_t>>& seen) {
    FileSystem::Status const st = fs.status(dir);
    if (st.kind != Kind::directory || !seen.insert({st.id.device, st.id.inode}).second) return;
    std::vector<std::string> entries;
    std::string error;
    if (!fs.list(dir, entries, error)) return;
    for (auto const& name : entries) {
        std::string const path = join(dir, name);
        FileSystem::Status const child = fs.status(path);
        if (child.kind == Kind::directory)
            walk(fs, path, files, seen);
        else if (child.kind == Kind::file && pgn_name(name))
            files.insert(fs.canonical(path));
    }
}

std::string check_plan(Bytes in, std::string& tree) {
    FakeFileSystem fs;
    std::vector<std::string> dirs{""}; // relative to the working folder /w
    std::vector<std::string> paths;    // every name made
    std::vector<std::string> files;
    std::set<std::string> used;
    unsigned const count = 3 + in.pick(22);
    for (unsigned k = 0; k < count; ++k) {
        unsigned const op = in.pick(9);
        std::string const path = join(dirs[in.pick(dirs.size())], names[in.pick(names.size())]);
        if (!used.insert(path).second) continue; // one node or link per name
        paths.push_back(path);
        tree += (tree.empty() ? "" : ", ") + path + "=" + std::to_string(op);
        switch (op) {
        case 0:
        case 1:
        case 2:
            fs.file(path, in.next());
            files.push_back(path);
            break;
        case 3:
        case 4:
            fs.dir(path);
            dirs.push_back(path);
            break;
        case 5:
            if (files.empty()) {
                fs.file(path);
                files.push_back(path);
            } else {
                std::string const& target = files[in.pick(files.size())];
                fs.hard_link(path, target);
                tree += "=>" + target;
            }
            break;
        case 6: {
            static constexpr std::array<std::string_view, 6> targets{
                "..", ".", "nowhere.pgn", "/w", "../a.pgn", "/w/out"};
            unsigned const t = in.pick(targets.size() + 1);
            std::string const target =
                t < targets.size() ? std::string(targets[t]) : "/w/" + paths[in.pick(paths.size())];
            fs.link(path, target);
            tree += "->" + target;
            break;
        }
        case 7:
            fs.fifo(path);
            break;
        default:
            fs.unlistable(path);
            dirs.push_back(path);
            break;
        }
    }
    auto some_path = [&]() -> std::string {
        if (paths.empty()) return "a.pgn";
        std::string p = paths[in.pick(paths.size())];
        switch (in.pick(4)) {
        case 0:
            return "./" + p;
        case 1:
            return p + "/";
        default:
            return p;
        }
    };

    batch::PlanRequest req;
    req.default_suffix = ".iccf.pgn";
    unsigned const n = in.pick(4);
    for (unsigned k = 0; k < n; ++k) {
        switch (in.pick(6)) {
        case 0:
            req.inputs.emplace_back("-");
            break;
        case 1:
            req.inputs.emplace_back("missing.pgn");
            break;
        default:
            req.inputs.push_back(some_path());
            break;
        }
    }
    static constexpr std::array<std::string_view, 5> output_names{"-", "", "out", "out/", "new/"};
    unsigned const o = in.pick(output_names.size() + 3);
    req.output = o < output_names.size()    ? std::string(output_names[o])
                 : o == output_names.size() ? join(dirs[in.pick(dirs.size())], "new")
                                            : some_path();
    static constexpr std::array<std::string_view, 6> rejects{"",      "",          "-",
                                                             "r.pgn", "out/r.pgn", "nodir/r.pgn"};
    unsigned const r = in.pick(rejects.size() + 1);
    req.rejects = r < rejects.size() ? std::string(rejects[r]) : some_path();
    req.check = in.pick(6) == 0;
    static constexpr std::array<std::string_view, 4> suffixes{"", "", ".x.pgn", ".gz"};
    req.suffix = suffixes[in.pick(suffixes.size())];
    std::string const in_path = in.pick(3) == 0 ? some_path() : "";
    std::string const out_path = in.pick(3) == 0 ? some_path() : "";
    fs.stream(0, in_path).stream(1, out_path);
    tree += "; < '" + in_path + "' > '" + out_path + "'";

    tree += "; inputs";
    for (auto const& i : req.inputs) tree += " '" + i + "'";
    tree += "; -o '" + req.output + "' --rejects '" + req.rejects + "' suffix '" + req.suffix +
            "'" + (req.check ? " --check" : "");
    batch::Plan const plan = make_plan(req, fs);
    if (!plan.problems.empty()) return "";

    // Inputs and outputs, with their identities.
    std::vector<Ident> inputs, outputs;
    std::set<std::string> planned; // canonical paths of the planned files
    std::map<std::string, std::ptrdiff_t> times;
    FileSystem::Status const in_stream = fs.stream(0), out_stream = fs.stream(1);
    for (auto const& job : plan.jobs) {
        if (job.input == "-") {
            Ident i{"<stdin>", "", in_stream.kind == Kind::file, in_stream.id};
            inputs.push_back(i);
            continue;
        }
        inputs.push_back(ident(fs, "input " + job.input, job.input));
        planned.insert(inputs.back().canonical);
        // A walk plans each path once; only a name given again may come again (cat a a).
        auto const given = std::count(req.inputs.begin(), req.inputs.end(), job.input);
        if (++times[job.input] > std::max<std::ptrdiff_t>(given, 1) + (given > 0 ? 1 : 0))
            return "the input " + job.input + " is planned twice";
        if (!job.output.empty()) outputs.push_back(ident(fs, "output " + job.output, job.output));
    }
    bool const to_stdout =
        (!plan.directory_mode && !req.check && plan.output == "-") || plan.rejects == "-";
    if (to_stdout && out_stream.kind == Kind::file)
        outputs.push_back({"standard output", "", true, out_stream.id});
    if (!plan.directory_mode && !plan.output.empty() && plan.output != "-")
        outputs.push_back(ident(fs, "-o " + plan.output, plan.output));
    if (!plan.rejects.empty() && plan.rejects != "-" && plan.rejects != "/dev/null")
        outputs.push_back(ident(fs, "--rejects " + plan.rejects, plan.rejects));
    for (auto const& out : outputs)
        for (auto const& input : inputs)
            if (same(out, input)) return "the " + out.what + " is the " + input.what;
    for (std::size_t a = 0; a < outputs.size(); ++a)
        for (std::size_t b = a + 1; b < outputs.size(); ++b)
            if (same(outputs[a], outputs[b]))
                return "the " + outputs[a].what + " is the " + outputs[b].what;

    // The folders: the output folder outside the directory inputs; what each output needs
    // exists or is planned, parents first; the rejects file no folder.
    std::set<std::string> folders;
    for (auto const& d : plan.directories_to_create) {
        std::string const c = fs.canonical(d);
        if (fs.status(d).kind != Kind::missing) return "the folder to create " + d + " exists";
        if (fs.status(parent(c)).kind != Kind::directory && folders.count(parent(c)) == 0)
            return "the folder " + d + " is planned before its parent";
        folders.insert(c);
    }
    auto folder_ready = [&](std::string const& file) {
        std::string const p = parent(fs.canonical(file));
        return fs.status(p).kind == Kind::directory || folders.count(p) != 0;
    };
    std::set<std::string> reachable;
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
    std::string const out_dir = plan.directory_mode ? fs.canonical(req.output) : "";
    std::vector<std::string> inputs_given = req.inputs;
    if (inputs_given.empty()) inputs_given.emplace_back("-");
    for (auto const& given : inputs_given) {
        if (given == "-") continue;
        FileSystem::Status const st = fs.status(given);
        if (st.kind == Kind::directory) {
            if (plan.directory_mode && under(out_dir, fs.canonical(given)))
                return "the output folder " + req.output + " is in the input folder " + given;
            walk(fs, given, reachable, seen);
        } else if (st.kind == Kind::file || st.kind == Kind::other) {
            reachable.insert(fs.canonical(given));
        }
    }
    if (plan.directory_mode) {
        FileSystem::Status const st = fs.status(req.output);
        if (st.kind == Kind::directory && seen.count({st.id.device, st.id.inode}) != 0)
            return "the output folder " + req.output + " is reached by a walk";
        for (auto const& job : plan.jobs) {
            if (!folder_ready(job.output)) return "no folder for " + job.output;
            if (!under(fs.canonical(job.output), out_dir))
                return "the output " + job.output + " is outside " + req.output;
        }
        if (!plan.rejects.empty() && plan.rejects != "-") {
            if (folders.count(fs.canonical(plan.rejects)) != 0 ||
                fs.status(plan.rejects).kind == Kind::directory)
                return "--rejects " + plan.rejects + " is a folder";
            if (fs.status(plan.rejects).kind == Kind::missing && !folder_ready(plan.rejects))
                return "no folder for --rejects " + plan.rejects;
        }
    }
    for (auto const& f : reachable)
        if (planned.count(f) == 0) return "the input " + f + " is not planned";
    for (auto const& f : planned)
        if (reachable.count(f) == 0) return "the planned " + f + " is no input";
    return "";
}

} // namespace

std::string check_plan_input(std::string_view bytes) {
    std::string tree; // what was built, for the message of a failure
    std::string failure = check_plan(Bytes{bytes}, tree);
    if (!failure.empty()) failure += " (tree: " + tree + ")";
    return failure;
}

} // namespace pgn_iccf::properties
