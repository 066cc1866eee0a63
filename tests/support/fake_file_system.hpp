// An in-memory FileSystem for the plan (src/plan/plan.hpp), shared by tests/plan_test and
// the plan's property checks (tests/support/plan_properties.cpp, fuzz target `plan`).
#pragma once

#include "plan/plan.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace pgn_iccf::test {

// A file system in memory. Paths are kept absolute and lexically normal; symbolic links are
// resolved component by component, as the kernel does, so ".." after a link goes to the
// target's parent, a loop ends in ELOOP and a file used as a folder ("f/x", "f/") in ENOTDIR.
// canonical() is what weakly_canonical gives: the existing part resolved, the rest appended.
class FakeFileSystem final : public io::FileSystem {
public:
    explicit FakeFileSystem(std::string cwd = "/w") : cwd_(std::move(cwd)) { dir(cwd_); }

    FakeFileSystem& file(std::string const& path, std::uint64_t size = 100) {
        return add(path, {Kind::file, next_id(), size, true});
    }
    FakeFileSystem& dir(std::string const& path) {
        return add(path, {Kind::directory, next_id(), 0, true});
    }
    FakeFileSystem& fifo(std::string const& path) {
        return add(path, {Kind::other, next_id(), 0, true});
    }
    FakeFileSystem& unlistable(std::string const& path) {
        return add(path, {Kind::directory, next_id(), 0, false});
    }
    // Another name for the node at `existing` (same FileId).
    FakeFileSystem& hard_link(std::string const& path, std::string const& existing) {
        return add(path, nodes_.at(absolute(existing)));
    }
    // A symbolic link; a relative target is taken from the link's folder.
    FakeFileSystem& link(std::string const& path, std::string const& target) {
        std::string const p = absolute(path);
        parents(p);
        links_[p] = target;
        return *this;
    }

    Status status(std::string const& path) const override {
        std::string resolved;
        if (!resolve(path, resolved)) return {Kind::unreadable, {}, 0, resolved};
        auto const it = nodes_.find(resolved);
        if (it != nodes_.end()) return {it->second.kind, it->second.id, it->second.size, {}};
        // Missing: a dangling link when the last component itself is a link.
        std::string const lexical = absolute(path);
        std::string parent;
        if (lexical != "/" && resolve(parent_of(lexical), parent) &&
            links_.count(join(parent, name_of(lexical))) != 0)
            return {Kind::unreadable, {}, 0, "dangling symbolic link"};
        return {};
    }

    bool list(std::string const& dir, std::vector<std::string>& names,
              std::string& error) const override {
        names.clear();
        std::string resolved;
        if (!resolve(dir, resolved)) {
            error = resolved;
            return false;
        }
        auto const it = nodes_.find(resolved);
        if (it == nodes_.end() || it->second.kind != Kind::directory) {
            error = it == nodes_.end() ? "No such file or directory" : "Not a directory";
            return false;
        }
        if (!it->second.listable) {
            error = "Permission denied";
            return false;
        }
        for (auto const& [p, node] : nodes_)
            if (p != "/" && parent_of(p) == resolved) names.push_back(name_of(p));
        for (auto const& [p, target] : links_)
            if (parent_of(p) == resolved) names.push_back(name_of(p));
        // Any order is allowed: give the reverse of the sorted one, so that the plan's own
        // sorting is tested.
        std::sort(names.rbegin(), names.rend());
        return true;
    }

    std::string canonical(std::string const& path) const override {
        std::string resolved;
        return resolve(path, resolved) ? resolved : absolute(path);
    }

    // Standard input (0), output (1) or error (2) opened on `path` (`< path`, `>> path`): its
    // status as fstat gives it; "" for a pipe or a terminal (no file of the tree).
    FakeFileSystem& stream(int fd, std::string const& path) {
        streams_[fd] = path;
        return *this;
    }
    Status stream(int fd) const override {
        auto const it = streams_.find(fd);
        if (it == streams_.end() || it->second.empty()) return {Kind::other, {9, 9}, 0, {}};
        return status(it->second);
    }

private:
    struct Node {
        Kind kind;
        FileId id;
        std::uint64_t size;
        bool listable;
    };

    FileId next_id() { return {7, ++last_inode_}; }

    static std::string parent_of(std::string const& p) {
        auto const slash = p.rfind('/');
        return slash == 0 ? "/" : p.substr(0, slash);
    }
    static std::string name_of(std::string const& p) { return p.substr(p.rfind('/') + 1); }
    static std::string join(std::string const& dir, std::string const& name) {
        return dir == "/" ? "/" + name : dir + "/" + name;
    }

    std::string absolute(std::string const& path) const {
        std::filesystem::path const p = path.empty() || path[0] != '/' ? cwd_ + "/" + path : path;
        std::string s = p.lexically_normal().generic_string();
        while (s.size() > 1 && s.back() == '/') s.pop_back();
        return s;
    }

    void parents(std::string const& p) {
        for (std::string d = parent_of(p); !nodes_.count(d); d = parent_of(d)) {
            nodes_[d] = {Kind::directory, next_id(), 0, true};
            if (d == "/") break;
        }
    }

    FakeFileSystem& add(std::string const& path, Node node) {
        std::string const p = absolute(path);
        if (p != "/") parents(p);
        nodes_[p] = node;
        return *this;
    }

    // The parts of a path; a trailing '/' is a trailing "." (the name must be a folder).
    static void push_front_parts(std::deque<std::string>& todo, std::string const& path) {
        std::vector<std::string> parts;
        std::string part;
        for (char c : path + "/") {
            if (c != '/') {
                part += c;
            } else if (!part.empty()) {
                parts.push_back(part);
                part.clear();
            }
        }
        if (path.size() > 1 && path.back() == '/') parts.push_back(".");
        todo.insert(todo.begin(), parts.begin(), parts.end());
    }

    // The resolved path in `out`, or false with the error text in `out`.
    bool resolve(std::string const& path, std::string& out) const {
        std::deque<std::string> todo;
        push_front_parts(todo, path.empty() || path[0] != '/' ? cwd_ + "/" + path : path);
        std::string cur = "/";
        int hops = 0;
        while (!todo.empty()) {
            auto const node = nodes_.find(cur);
            if (node != nodes_.end() && node->second.kind != Kind::directory) {
                out = "Not a directory";
                return false;
            }
            std::string const part = todo.front();
            todo.pop_front();
            if (part == ".") continue;
            if (part == "..") {
                cur = parent_of(cur);
                continue;
            }
            std::string const next = join(cur, part);
            auto const l = links_.find(next);
            if (l == links_.end()) {
                cur = next;
                continue;
            }
            if (++hops > 40) {
                out = "Too many levels of symbolic links";
                return false;
            }
            if (l->second[0] == '/') cur = "/";
            push_front_parts(todo, l->second);
        }
        out = cur;
        return true;
    }

    std::string cwd_;
    std::map<std::string, Node> nodes_;
    std::map<std::string, std::string> links_;
    std::map<int, std::string> streams_;
    std::uint64_t last_inode_ = 0;
};

} // namespace pgn_iccf::test
