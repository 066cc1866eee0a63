// The registry of temporary files to remove on SIGINT, SIGTERM, SIGHUP and SIGPIPE.
//
// A signal handler may run at any instruction of any thread, including in the middle of
// register_temporary() on the same thread, so the registry is a fixed array of slots whose
// only synchronisation is one lock-free atomic state per slot; the handler neither locks nor
// allocates. A slot's path is only read in the state `ready`, and the handler takes a slot
// by moving it from `ready` to `removing` with a compare-exchange, so a path is never read
// while a thread rewrites it, and two handlers (two signals on two threads) never share one.
//
// Paths are used as given: a relative path names a file relative to the working directory,
// which the tool never changes.
#include "io/cleanup.hpp"

#include <array>
#include <atomic>
#include <climits>
#include <csignal>
#include <cstring>
#include <filesystem>

#include <unistd.h>

namespace pgn_iccf::io {

namespace {

enum SlotState : int {
    slot_free = 0,
    slot_writing = 1,  // claimed by register_temporary(), path being copied
    slot_ready = 2,    // path complete: the handler may unlink it
    slot_removing = 3, // taken by a handler; never freed again (the process is dying)
};

struct Slot {
    std::atomic<int> state{slot_free};
    char path[PATH_MAX];
};

static_assert(std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics to be async-signal-safe");

constexpr std::size_t slot_count = 256;
std::array<Slot, slot_count> slots;

// SIGPIPE too: `pgn-iccf --rejects r.pgn big.pgn | head` must not leave the rejects temporary.
constexpr std::array<int, 4> cleanup_signals{SIGINT, SIGTERM, SIGHUP, SIGPIPE};

// The folders the run created, newest first: a list of nodes pushed at its head and never
// freed (reachable from `directories` until the process ends), so that the handler can walk
// it without a lock while another thread pushes. A node is published complete by the
// release store of the head; `live` is cleared when the run no longer wants it removed.
struct DirectoryNode {
    DirectoryNode* next = nullptr;
    std::atomic<bool> live{true};
    char* path = nullptr; // NUL-terminated, exactly as long as needed
};
std::atomic<DirectoryNode*> directories{nullptr};

static_assert(std::atomic<DirectoryNode*>::is_always_lock_free,
              "the signal handler needs lock-free atomics to be async-signal-safe");

// Unlinks every complete registered path, removes the registered folders left empty, then dies by
// the same signal with the default action so that the parent (a shell, make, xargs) sees the real
// cause. Only async-signal-safe calls: unlink, sigaction, sigprocmask, raise. The signal is blocked
// while its handler runs, so it is unblocked before being raised again.
extern "C" void cleanup_handler(int sig) {
    for (auto& slot : slots) {
        int expected = slot_ready;
        if (slot.state.compare_exchange_strong(expected, slot_removing)) ::unlink(slot.path);
    }
    for (DirectoryNode* d = directories.load(std::memory_order_acquire); d != nullptr; d = d->next)
        if (d->live.exchange(false)) ::rmdir(d->path); // fails, harmlessly, if not empty
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
}

} // namespace

// Installs the handler once per process (later calls do nothing). A signal that is ignored
// when the program starts stays ignored, as `nohup` and `trap '' HUP` intend; every other
// disposition is replaced. The handler blocks all signals while it runs, so a second
// signal cannot interrupt the removal loop halfway on the same thread.
void install_signal_cleanup() {
    static bool const installed = [] {
        for (int const sig : cleanup_signals) {
            struct sigaction old {};
            if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
            struct sigaction sa {};
            sa.sa_handler = cleanup_handler;
            sigfillset(&sa.sa_mask);
            sa.sa_flags = SA_RESETHAND;
            ::sigaction(sig, &sa, nullptr);
        }
        return true;
    }();
    static_cast<void>(installed);
}

// A slot is claimed with a compare-exchange from `free`, filled, then published as `ready`
// with release ordering so that a handler on another thread sees the whole path.
int register_temporary(std::string const& path) {
    if (path.empty() || path.size() >= PATH_MAX) return -1;
    for (std::size_t i = 0; i < slot_count; ++i) {
        auto& slot = slots[i];
        int expected = slot_free;
        if (!slot.state.compare_exchange_strong(expected, slot_writing, std::memory_order_acquire))
            continue;
        std::memcpy(slot.path, path.data(), path.size());
        slot.path[path.size()] = '\0';
        slot.state.store(slot_ready, std::memory_order_release);
        return static_cast<int>(i);
    }
    return -1;
}

// Frees the slot unless a handler has taken it (then the process is about to die and the
// slot must keep its path until the handler is done with it).
void unregister_temporary(int slot) {
    if (slot < 0 || static_cast<std::size_t>(slot) >= slot_count) return;
    int expected = slot_ready;
    slots[static_cast<std::size_t>(slot)].state.compare_exchange_strong(expected, slot_free);
}

// A new node is filled, then pushed at the head with a compare-exchange (release), so that
// the handler sees only complete nodes.
void register_directory(std::string const& path) {
    if (path.empty() || path.size() >= PATH_MAX) return;
    auto* node = new DirectoryNode;
    node->path = new char[path.size() + 1];
    std::memcpy(node->path, path.data(), path.size());
    node->path[path.size()] = '\0';
    DirectoryNode* head = directories.load(std::memory_order_relaxed);
    do node->next = head;
    while (!directories.compare_exchange_weak(head, node, std::memory_order_release,
                                              std::memory_order_relaxed));
}

void unregister_directories() {
    for (DirectoryNode* d = directories.load(std::memory_order_acquire); d != nullptr; d = d->next)
        d->live.store(false);
}

CreatedFolders::~CreatedFolders() {
    for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) ::rmdir(it->c_str());
    if (!dirs_.empty()) unregister_directories();
}

bool CreatedFolders::create(std::string const& dir, std::error_code& error) {
    if (std::filesystem::create_directory(dir, error)) {
        dirs_.push_back(dir);
        register_directory(dir);
    }
    return !error || std::filesystem::is_directory(dir);
}

} // namespace pgn_iccf::io
