// Read-ahead on a thread of its own (see prefetch.hpp).
//
// The ring: `buffers` slots, each free (the thread may fill it) or full (bytes, an end of
// input or an error, waiting for the consumer). The thread fills slots in ring order and
// stops at the first end or error; the consumer takes them in the same order and gives each
// back once it has handed out its last byte. Everything the two share is under one mutex; the
// bytes of a slot are only touched by the thread while the slot is free and by the consumer
// while it is full, so the copies are made outside the lock.
#include "io/prefetch.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pgn_iccf::io {

namespace {

struct Slot {
    std::vector<char> bytes;
    std::size_t size = 0;       // bytes read into it
    std::uint64_t consumed = 0; // the inner consumed() after that read
    bool full = false;          // waiting for the consumer
    bool end = false;           // the inner source ended (size 0)
    bool failed = false;        // the inner read failed (size 0): message in `error`
    std::string error;
};

// What the thread and the consumer share; the thread holds it too, so that a thread left to
// finish a blocked read after the consumer is gone still owns everything it touches.
struct Shared {
    std::unique_ptr<ByteSource> inner;
    std::vector<Slot> slots;
    std::mutex mutex;
    std::condition_variable filled; // a slot became full
    std::condition_variable freed;  // a slot became free, or stop
    bool stop = false;
    bool reading = false; // the thread is inside inner->read()
};

void fill(std::shared_ptr<Shared> const& s) {
    std::size_t next = 0;
    for (;;) {
        Slot& slot = s->slots[next];
        {
            std::unique_lock lock(s->mutex);
            s->freed.wait(lock, [&] { return s->stop || !slot.full; });
            if (s->stop) return;
            s->reading = true;
        }
        // The slot is free: only this thread touches it until it is marked full.
        std::ptrdiff_t r = -1;
        std::string error;
        try {
            r = s->inner->read(slot.bytes.data(), slot.bytes.size());
            if (r < 0) error = s->inner->error();
        } catch (std::bad_alloc const&) {
            r = -1;
            error = "not enough memory to read the input";
        } catch (std::exception const& e) {
            r = -1;
            error = e.what();
        }
        slot.size = r > 0 ? static_cast<std::size_t>(r) : 0;
        slot.consumed = s->inner->consumed();
        slot.end = r == 0;
        slot.failed = r < 0;
        slot.error = std::move(error);
        bool const last = r <= 0;
        {
            std::lock_guard lock(s->mutex);
            s->reading = false;
            slot.full = true;
        }
        s->filled.notify_one();
        if (last) return;
        next = (next + 1) % s->slots.size();
    }
}

class PrefetchSource final : public ByteSource {
public:
    PrefetchSource(std::unique_ptr<ByteSource> inner, std::size_t buffers, std::size_t buffer_size)
        : shared_(std::make_shared<Shared>()) {
        shared_->inner = std::move(inner);
        shared_->slots.resize(std::max<std::size_t>(buffers, 1));
        for (Slot& slot : shared_->slots) slot.bytes.resize(std::max<std::size_t>(buffer_size, 1));
        consumed_ = shared_->inner->consumed();
        try {
            thread_ = std::thread(fill, shared_);
        } catch (std::exception const&) {
            // No thread to be had: the inner source is read directly, as without read-ahead.
            direct_ = true;
            shared_->slots.clear();
        }
    }

    PrefetchSource(PrefetchSource const&) = delete;
    PrefetchSource& operator=(PrefetchSource const&) = delete;

    ~PrefetchSource() override {
        if (direct_) return;
        bool blocked = false;
        {
            std::lock_guard lock(shared_->mutex);
            shared_->stop = true;
            blocked = shared_->reading;
        }
        shared_->freed.notify_one();
        // A thread inside a read may wait for a pipe indefinitely: it is left to end on its
        // own (it holds the shared state); one waiting for a free slot ends at once.
        if (blocked)
            thread_.detach();
        else
            thread_.join();
    }

    std::ptrdiff_t read(char* dst, std::size_t n) override {
        if (direct_) return shared_->inner->read(dst, n);
        if (n == 0) return 0;
        Slot* slot = &shared_->slots[current_];
        if (!holding_) {
            std::unique_lock lock(shared_->mutex);
            shared_->filled.wait(lock, [&] { return slot->full; });
            holding_ = true;
            pos_ = 0;
            consumed_ = slot->consumed;
        }
        // A full slot is the consumer's: read without the lock.
        if (slot->end) return 0; // kept: every later read is the end again
        if (slot->failed) {
            error_ = slot->error;
            return -1;
        }
        std::size_t const k = std::min(n, slot->size - pos_);
        std::memcpy(dst, slot->bytes.data() + pos_, k);
        pos_ += k;
        if (pos_ == slot->size) {
            {
                std::lock_guard lock(shared_->mutex);
                slot->full = false;
            }
            shared_->freed.notify_one();
            holding_ = false;
            current_ = (current_ + 1) % shared_->slots.size();
        }
        return static_cast<std::ptrdiff_t>(k);
    }

    std::string error() const override { return direct_ ? shared_->inner->error() : error_; }
    std::uint64_t consumed() const override {
        return direct_ ? shared_->inner->consumed() : consumed_;
    }

private:
    std::shared_ptr<Shared> shared_;
    std::thread thread_;
    bool direct_ = false;     // no thread: reads go to the inner source
    std::size_t current_ = 0; // the slot the consumer reads next
    bool holding_ = false;    // that slot is full and being handed out
    std::size_t pos_ = 0;     // bytes of it handed out
    std::uint64_t consumed_ = 0;
    std::string error_;
};

} // namespace

std::unique_ptr<ByteSource> prefetched(std::unique_ptr<ByteSource> inner, std::size_t buffers,
                                       std::size_t buffer_size) {
    return std::make_unique<PrefetchSource>(std::move(inner), buffers, buffer_size);
}

} // namespace pgn_iccf::io
