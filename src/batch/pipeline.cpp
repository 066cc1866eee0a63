// The stages of the run's pipeline (pipeline.hpp): the serial Reader, Numbering and Writer, the
// parallel split and convert, the Intake that bounds the game bytes in flight, and
// run_pipeline, which puts them into one oneTBB parallel_pipeline.
#include "batch/pipeline.hpp"

#include "batch/convert.hpp"
#include "batch/in_flight.hpp"

#include "io/compress.hpp"
#include "pgn/buffers.hpp"
#include "pgn/game_reader.hpp"
#include "reader/cutter.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <utility>
#include <vector>

namespace pgn_iccf::batch {

namespace {

using detail::Batch;
using detail::BatchPool;
using detail::StageTimes;

// A job's input opened and its first block cut: what the reader does first for each job. For
// a tree of small files that is most of the reader's work (open, sniff, look for cuts), so the
// reader has the jobs after the current one opened ahead on other threads (Reader::open_ahead):
// whoever claims an Opened first (waiting -> opening) opens it; the reader takes it when
// ready, or opens it itself if no thread has claimed it yet (it never waits for a task that
// has not started).
struct Opened {
    enum State : int { waiting, opening, ready };
    std::atomic<int> state{waiting};
    io::Input input;
    std::unique_ptr<reader::Cutter> cutter;
    reader::Cutter::Next first = reader::Cutter::Next::end;
    reader::Block block;

    bool claim() {
        int expected = waiting;
        return state.compare_exchange_strong(expected, opening, std::memory_order_acq_rel);
    }
    void open(Job const& job, PipelineOptions const& opt) {
        if (job.input == "-" && opt.stdin_closed)
            input = {nullptr, io::Compression::none, job.display + ": standard input is closed"};
        else
            input = io::open_input(job.input, job.display, opt.max_window);
        if (input.source) {
            // Without cuts (tests: as before blocks), the cutter gives up at once.
            cutter = std::make_unique<reader::Cutter>(*input.source, opt.block_bytes,
                                                      opt.cut_blocks ? opt.block_cap : 0,
                                                      opt.max_game_size);
            first = cutter->next(block);
        }
        state.store(ready, std::memory_order_release);
        state.notify_one();
    }
    // Waits until the thread that claimed it has opened it.
    void wait_ready() {
        for (int s; (s = state.load(std::memory_order_acquire)) != ready;)
            state.wait(s, std::memory_order_acquire);
    }
};

// The serial first stage: opens the jobs' inputs in turn and cuts them into blocks that the
// workers split into games (reader/cutter.hpp); where an input has no cut within a block's
// cap, the rest of it is split here by one GameReader, into batches of games.
class Reader {
public:
    Reader(Plan const& plan, PipelineOptions const& options, std::atomic<bool> const& stop)
        : plan_(plan), opt_(options), stop_(stop), opened_(plan.jobs.size()) {}

    // Waits for the jobs opened ahead (inside the arena that runs them).
    void finish() { ahead_tasks_.wait(); }

    // The next batch, or false when every job is done (or the writer asked to stop).
    bool next(Batch& b) {
        if (stop_.load(std::memory_order_relaxed)) return false;
        if (!cutter_) {
            if (job_ == plan_.jobs.size()) return false;
            std::shared_ptr<Opened> o = std::move(opened_[job_]);
            if (!o) o = std::make_shared<Opened>();
            open_ahead();
            if (o->claim())
                o->open(plan_.jobs[job_], opt_);
            else
                o->wait_ready();
            input_ = std::move(o->input);
            b.job = job_;
            b.first = true;
            if (!input_.source) {
                b.last = true;
                b.unreadable = true;
                b.input_error = input_.error;
                b.consumed = consumed_before_;
                ++job_;
                return true;
            }
            cutter_ = std::move(o->cutter);
            b.block = std::move(o->block);
            return cut(o->first, b);
        }
        b.job = job_;
        if (rest_) return next_rest(b);
        return cut(cutter_->next(b.block), b);
    }

private:
    // Jobs opened ahead: the next few small plain files (no larger than a block: what is
    // opened ahead holds at most a block each), as many as there are threads, from -j4 on.
    // Below, the reader is not what bounds a tree of small files (about 20 us a file against
    // 140 us of converting, which N threads share), and opening ahead cost 3% more CPU time
    // at -j2 (tasks on other threads). Not a compressed one: opening it starts its decoder's
    // thread, which decodes at once into its ring (about 2 MiB held for each), and on a tree of 400
    // .pgn.gz files of 8 KB opening them ahead made -j2 slower (1.5x the wall time, 1.3x the CPU
    // time).
    void open_ahead() {
        if (opt_.threads < 4) return;
        std::size_t const end = std::min(plan_.jobs.size(), job_ + 1 + opt_.threads);
        for (std::size_t j = std::max(job_ + 1, ahead_end_); j < end; ++j) {
            Job const& job = plan_.jobs[j];
            if (job.input == "-" || !job.size_known || job.size > opt_.block_bytes ||
                io::compression_for_name(job.input) != io::Compression::none)
                continue;
            opened_[j] = std::make_shared<Opened>();
            ahead_tasks_.run([o = opened_[j], &job, this] {
                if (o->claim()) o->open(job, opt_);
            });
        }
        ahead_end_ = std::max(ahead_end_, end);
    }

    // Hands out what the cutter found for the current job.
    bool cut(reader::Cutter::Next next, Batch& b) {
        switch (next) {
        case reader::Cutter::Next::block:
            b.split = true;
            b.new_region = true;
            b.region_end = !b.block.last;
            b.bytes = b.block.offset + b.block.size;
            b.consumed = consumed_before_ + cutter_->consumed();
            if (b.block.last) end_job(b, cutter_->error());
            return true;
        case reader::Cutter::Next::end:
            b.bytes = cutter_->bytes_read();
            b.consumed = consumed_before_ + cutter_->consumed();
            end_job(b, cutter_->error());
            return true;
        case reader::Cutter::Next::rest:
            break;
        }
        rest_offset_ = cutter_->rest_offset();
        rest_ =
            std::make_unique<pgn::GameReader>(cutter_->rest(), opt_.read_chunk, opt_.max_game_size,
                                              syntax::Location{rest_offset_, 1, 1});
        b.new_region = true;
        return next_rest(b);
    }

    // The rest of a job with no cut within a block's cap: batches of games split here.
    bool next_rest(Batch& b) {
        bool const more = rest_->next_batch(b.games, opt_.batch_bytes, opt_.batch_games);
        b.bytes = rest_offset_ + rest_->bytes_read();
        b.consumed = consumed_before_ + cutter_->rest().consumed();
        if (!more) end_job(b, rest_->io_error());
        return true;
    }

    // The job's last batch (possibly empty).
    void end_job(Batch& b, std::string const& io_error) {
        b.last = true;
        if (!io_error.empty()) b.input_error = plan_.jobs[job_].display + ": " + io_error;
        consumed_before_ = b.consumed;
        rest_.reset();
        cutter_.reset();
        input_ = {};
        ++job_;
    }

    Plan const& plan_;
    PipelineOptions const& opt_;
    std::atomic<bool> const& stop_;
    std::size_t job_ = 0;
    io::Input input_;
    std::unique_ptr<reader::Cutter> cutter_;
    std::unique_ptr<pgn::GameReader> rest_;
    std::uint64_t rest_offset_ = 0;
    std::uint64_t consumed_before_ = 0;
    // Opened ahead, by job (null: not opened ahead; taken when its turn comes). Its task
    // shares it (the task may start after the reader has opened and dropped it); every task
    // is waited for by finish().
    std::vector<std::shared_ptr<Opened>> opened_;
    std::size_t ahead_end_ = 0; // jobs before this have been considered for opening ahead
    tbb::task_group ahead_tasks_;
};

// The serial stage between the two parallel ones: the games of each region get their lines
// and numbers in the input (a region's own count from 1), from the regions before it.
class Numbering {
public:
    void number(Batch& b) {
        if (b.pause) return;
        if (b.first) next_line_ = 1, next_games_ = 0;
        if (b.new_region) line_ = next_line_, games_ = next_games_;
        if (line_ != 1 || games_ != 0)
            for (syntax::RawGame& g : b.games.games) {
                // Lines wrap at 2^32 as the reader's count does.
                g.start.line += static_cast<std::uint32_t>(line_ - 1);
                if (g.number != 0) g.number += games_;
            }
        if (b.region_end) {
            next_line_ = line_ + b.region_lines;
            next_games_ = games_ + b.region_games;
        }
    }

private:
    std::uint64_t line_ = 1, games_ = 0;           // of the current region's start
    std::uint64_t next_line_ = 1, next_games_ = 0; // of the next region's
};

// The serial last stage: writes batches in input order and keeps the counts.
class Writer {
public:
    Writer(Plan const& plan, PipelineOptions const& options, Sinks const& sinks, Report& report,
           Summary& summary, SinkUse& use, std::atomic<bool>& stop)
        : plan_(plan), opt_(options), sinks_(sinks), report_(report), sum_(summary), use_(use),
          stop_(stop) {}

    void write(Batch& b) {
        // After an output failure the batches still in flight are dropped: they were read
        // after the failure and belong to no file the user will get.
        if (stopped_ || b.pause) return;
        Job const& job = plan_.jobs[b.job];
        if (b.first) start_job(job, b);
        // A block that could not be read ends the job's output there, as a read error of the
        // whole input does: the job's later batches are not written.
        if (!b.read_error.empty() && read_error_.empty()) read_error_ = b.read_error;
        if (read_error_.empty()) {
            if (!b.lines.empty()) show_messages(b);
            write_outputs(b);
            add_counts(b);
            // A stop ends the run inside this job: its bytes up to here count, as its games
            // do (end_job, which adds them otherwise, does not come; the summary's MB/s).
            if (stopped_) sum_.bytes += b.bytes;
        }
        // After a stop the job is not ended: no per-file line for an output not written.
        if (b.last && !stopped_) end_job(job, b);
        late_bytes_ += b.late_bytes;
        report_.progress(files_done_, b.consumed + late_bytes_, sum_.bytes + (b.last ? 0 : b.bytes),
                         sum_.games);
    }

private:
    // The batch's output and rejects to their sinks (a failure stops the run).
    void write_outputs(Batch const& b) {
        io::ByteSink* out = plan_.directory_mode ? job_sink_.get() : sinks_.single;
        std::string const& name = plan_.directory_mode ? plan_.jobs[b.job].output : plan_.output;
        std::string const& text = b.packed.empty() ? b.out : b.packed;
        if (b.own == Batch::Own::write_failed) {
            output_failed(out, name);
        } else if (b.own != Batch::Own::none) {
            wrote_ = b.own == Batch::Own::prepared || !text.empty(); // written by the worker
        } else if (out && !text.empty()) {
            if (out->write(text)) {
                wrote_ = true;
                if (!plan_.directory_mode) use_.single_written = true;
            } else {
                output_failed(out, name);
            }
        }
        std::string const& rej = b.rejects_packed.empty() ? b.rejects : b.rejects_packed;
        if (sinks_.rejects && !rej.empty()) {
            use_.rejects_written = true;
            if (!sinks_.rejects->write(rej)) {
                if (!use_.rejects_failed) report_.error(sinks_.rejects->error(), plan_.rejects);
                use_.rejects_failed = true;
                sum_.io_failure = true;
                stop();
            }
        }
    }

    // The batch's counts into the run's summary and the file's line.
    void add_counts(Batch const& b) {
        batch::add_counts(sum_, b);
        file_.games += b.game_count;
        file_.rejected += b.rejected;
        file_.kept_broken += b.kept_broken;
        file_.errors += b.errors;
        file_.warnings += b.warnings;
    }

    // A count per warning kind, in order of first appearance (a run sees a few dozen kinds).
    using KindCounts = std::vector<std::pair<report::FoldKey, std::uint64_t>>;
    static std::uint64_t count(KindCounts& counts, report::FoldKey kind) {
        for (auto& [k, n] : counts)
            if (k == kind) return ++n;
        counts.emplace_back(kind, 1);
        return 1;
    }

    // Whether a diagnostic of this kind is shown: every error; warnings as
    // PipelineOptions::warnings says (folded: the first few of each kind in this file).
    bool shown(report::FoldKey kind) {
        if (kind == report::FoldKey::none) return true;
        count(sum_.warning_kinds, kind);
        std::uint64_t const n = count(file_kinds_, kind);
        return opt_.warnings == WarningDisplay::all ||
               (opt_.warnings == WarningDisplay::folded && n <= opt_.warnings_per_kind);
    }

    // Passes the batch's diagnostics to the report, runs of shown lines at once: each line's
    // fold key and end come with it (Batch::lines), so the text is not read again.
    void show_messages(Batch const& b) {
        std::string_view const all = b.messages;
        std::size_t begin = 0, shown_from = 0;
        for (report::MessageLine const& line : b.lines) {
            if (!shown(line.key)) {
                if (begin > shown_from)
                    report_.diagnostics(all.substr(shown_from, begin - shown_from));
                shown_from = line.end;
            }
            begin = line.end;
        }
        if (all.size() > shown_from) report_.diagnostics(all.substr(shown_from));
    }

    // The "... and N more" lines of the file's folded warnings.
    void close_folds(Job const& job) {
        if (opt_.warnings == WarningDisplay::folded)
            for (auto const& [kind, n] : file_kinds_)
                if (n > opt_.warnings_per_kind)
                    report_.folded(job.display, kind, n - opt_.warnings_per_kind);
        file_kinds_.clear();
    }

    void start_job(Job const& job, Batch& b) {
        file_ = FileLine{};
        file_kinds_.clear();
        file_.input = job.display;
        wrote_ = false;
        job_failed_ = false;
        if (b.unreadable) return;
        if (!plan_.directory_mode) return;
        std::string error;
        if (b.own == Batch::Own::none) {
            job_sink_ = io::open_file_sink(job.output, error);
        } else {
            job_sink_ = std::move(b.own_sink);
            error = b.own_error;
        }
        if (!job_sink_) {
            report_.error(error, job.output);
            sum_.io_failure = true;
            job_failed_ = true;
            stop();
        }
    }

    // `name`: the output as the plan names it.
    void output_failed(io::ByteSink* out, std::string const& name) {
        if (plan_.directory_mode) {
            if (!job_failed_) report_.error(out->error(), name);
            job_failed_ = true;
            if (job_sink_) job_sink_->abandon();
        } else if (!use_.single_failed) {
            report_.error(out->error(), name);
            use_.single_failed = true;
        }
        sum_.io_failure = true;
        stop();
    }

    // An output that cannot be written (a full disk, a read-only folder) ends the run: going
    // on would only repeat the error for every file.
    void stop() {
        if (stopped_) return;
        stopped_ = true;
        use_.stopped = true;
        stop_.store(true, std::memory_order_relaxed);
        report_.error("stopping: the output cannot be written; no further input is read");
    }

    void end_job(Job const& job, Batch const& b) {
        ++files_done_;
        close_folds(job);
        sum_.bytes += b.bytes;
        std::string const input_error = read_error_.empty() ? b.input_error : read_error_;
        read_error_.clear();
        if (!input_error.empty()) {
            report_.error(input_error, job.display);
            sum_.io_failure = true;
            ++sum_.unreadable;
        }
        bool const incomplete = !input_error.empty() && !b.unreadable;
        if (incomplete) ++sum_.incomplete;
        if (!plan_.directory_mode) {
            if (!b.unreadable) report_.file_done(file_);
            return;
        }
        if (b.unreadable) return;
        if (job_sink_) {
            if (incomplete || job_failed_) {
                job_sink_->abandon();
                if (incomplete)
                    report_.error(job.output + " not written: " + job.display +
                                      " could not be read to the end",
                                  job.output);
            } else {
                std::string error;
                if (commit_output(*job_sink_, job.output_compression, opt_.compress_level, wrote_,
                                  error))
                    file_.output = job.output;
                else {
                    // A full disk often shows only here (the last bytes are written at
                    // commit): the run stops as for a failed write.
                    report_.error(error, job.output);
                    sum_.io_failure = true;
                    stop();
                }
            }
            job_sink_.reset();
        }
        report_.file_done(file_);
    }

    Plan const& plan_;
    PipelineOptions const& opt_;
    Sinks const& sinks_;
    Report& report_;
    Summary& sum_;
    SinkUse& use_;
    std::atomic<bool>& stop_;
    std::unique_ptr<io::ByteSink> job_sink_;
    FileLine file_{};
    KindCounts file_kinds_;
    bool wrote_ = false;
    bool job_failed_ = false;
    bool stopped_ = false;
    std::uint64_t files_done_ = 0;
    std::string read_error_; // a block of the current job could not be read
    // Input bytes that the reader's `consumed` misses: last blocks read to the end by workers.
    std::uint64_t late_bytes_ = 0;
};

// The first parallel stage: splits a block into games.
void split(Batch& b, Plan const& plan, PipelineOptions const& opt) {
    if (b.pause || !b.split) return;
    if (b.block.source) {
        bool const to_end = b.block.to_end;
        std::string error;
        bool const ok = reader::read_block(b.block, error);
        if (to_end) { // its size is known now (see Writer::late_bytes_)
            b.late_bytes = b.block.size;
            b.bytes += b.block.size;
        }
        if (!ok) {
            b.read_error = plan.jobs[b.job].display + ": " + error;
            return;
        }
    }
    reader::BlockCount const c =
        reader::split_block(b.block, pgn::game_classifier(), opt.max_game_size, b.games);
    b.region_lines = c.lines;
    b.region_games = c.games;
}

// A job whose input is one batch (a small file), in directory mode: its output file is written
// here, on the worker, up to the rename (prepare), so that a tree of small files does not
// wait on one thread opening, writing and closing each file; the writer renames it in input
// order, and reports what failed there as if it had failed itself.
void write_whole_job(Batch& b, Job const& job, PipelineOptions const& opt) {
    b.own_sink = io::open_file_sink(job.output, b.own_error);
    if (!b.own_sink) {
        b.own = Batch::Own::open_failed;
        return;
    }
    std::string const& text = b.packed.empty() ? b.out : b.packed;
    if (!text.empty() && !b.own_sink->write(text)) {
        b.own = Batch::Own::write_failed;
        return;
    }
    b.own = prepare_output(*b.own_sink, job.output_compression, opt.compress_level, !text.empty(),
                           b.own_error)
                ? Batch::Own::prepared
                : Batch::Own::prepare_failed;
}

// The second parallel stage: converts one batch with the thread's own Converter.
void convert(Batch& b, pgn::Converter& converter, Plan const& plan, PipelineOptions const& opt,
             Sinks const& sinks) {
    if (b.pause) return;
    Job const& job = plan.jobs[b.job];
    BatchSource source{job.display, sinks.rejects != nullptr, opt.max_game_size, opt.diagnostics};
    // Only warnings the writer may show are worded: within a batch (one file), a kind's
    // warnings past the fold limit never are (the writer still counts them by key).
    source.worded_per_kind = opt.warnings == WarningDisplay::all      ? UINT64_MAX
                             : opt.warnings == WarningDisplay::folded ? opt.warnings_per_kind
                                                                      : 0;
    convert_batch(b.games, converter, source, b);
    io::Compression const c =
        plan.directory_mode ? job.output_compression : sinks.single_compression;
    if (c != io::Compression::none && !b.out.empty())
        io::compress_chunk(c, opt.compress_level, b.out, b.packed);
    if (sinks.rejects_compression != io::Compression::none && !b.rejects.empty())
        io::compress_chunk(sinks.rejects_compression, opt.compress_level, b.rejects,
                           b.rejects_packed);
    if (plan.directory_mode && b.first && b.last && !b.unreadable && b.read_error.empty() &&
        b.input_error.empty())
        write_whole_job(b, job, opt);
}

// The first stage: the reader's next batch, within a budget of game bytes in flight (read, not
// yet written). Batches of normal games never reach the budget, but batches holding large
// games (up to --max-game-size) can. While the bytes in flight are at the budget the reader
// reads nothing more; a batch that would take them over it is parked here until it fits, or
// until nothing else is in flight (a game larger than the budget then goes through alone, and
// games of a few MiB still go in parallel as far as the budget allows). Meanwhile pause
// batches holding no games go out: each takes a token and passes the stages in order behind
// the batches in flight, so no thread blocks and -j1 cannot deadlock; once every token is
// taken, oneTBB asks again only when a batch has been written. So at most the budget, or one
// large game, is being converted at a time, plus at most one parked batch (its game bytes
// only) behind normal ones.
class Intake {
public:
    Intake(Reader& reader, BatchPool& pool, std::size_t budget)
        : reader_(reader), pool_(pool), budget_(budget) {}

    Batch* next(tbb::flow_control& fc) {
        if (parked_ == nullptr && in_flight_.load() >= budget_) return pause();
        Batch* b = std::exchange(parked_, nullptr);
        if (b == nullptr) {
            b = pool_.get();
            if (!reader_.next(*b)) {
                pool_.put(b);
                fc.stop();
                return nullptr;
            }
            b->weight = b->split ? b->block.length : b->games.bytes.size();
        }
        std::size_t const now = in_flight_.load();
        if (now > 0 && now + b->weight > budget_) {
            parked_ = b;
            return pause();
        }
        in_flight_ += b->weight;
        return b;
    }
    // A batch written: its bytes leave the budget, the batch goes back to the pool.
    void done(Batch* b) {
        in_flight_ -= b->weight;
        pool_.put(b);
    }

private:
    Batch* pause() {
        Batch* p = pool_.get();
        p->pause = true;
        return p;
    }

    Reader& reader_;
    BatchPool& pool_;
    std::size_t budget_;
    std::atomic<std::size_t> in_flight_{0};
    Batch* parked_ = nullptr; // read, waiting for room (the first stage's own)
};

} // namespace

void run_pipeline(Plan const& plan, PipelineOptions const& options, Sinks const& sinks,
                  Report& report, Summary& summary, SinkUse& use) {
    unsigned const threads = options.threads == 0 ? 1 : options.threads;
    BatchPool pool;
    std::atomic<bool> stop{false};
    Reader reader(plan, options, stop);
    Numbering numbering;
    Writer writer(plan, options, sinks, report, summary, use, stop);
    tbb::enumerable_thread_specific<pgn::Converter> converters(options.convert);
    // A few batches per thread keep every thread busy while the serial stages work; more
    // would only cost memory. The budget of bytes in flight: see Intake.
    std::size_t const tokens = 2 * std::size_t{threads} + 2;
    Intake intake(reader, pool, (tokens + 1) * options.batch_bytes);
    // The worker limit is raised to the request (by default oneTBB allows one thread per core,
    // and warns on stderr about an arena asking for more).
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    tbb::task_arena arena(static_cast<int>(threads));
    StageTimes times;
    using enum tbb::filter_mode;
    arena.execute([&] {
        // The tasks opening jobs ahead are waited for, however the pipeline ends.
        struct Finish {
            Reader& r;
            ~Finish() { r.finish(); }
        } finish{reader};
        tbb::parallel_pipeline(
            tokens, tbb::make_filter<void, Batch*>(serial_in_order, [&](tbb::flow_control& fc) {
                        auto const c = times.clock(StageTimes::read);
                        return intake.next(fc);
                    }) & tbb::make_filter<Batch*, Batch*>(parallel, [&](Batch* b) {
                        auto const c = times.clock(StageTimes::convert);
                        split(*b, plan, options);
                        return b;
                    }) & tbb::make_filter<Batch*, Batch*>(serial_in_order, [&](Batch* b) {
                        auto const c = times.clock(StageTimes::number);
                        numbering.number(*b);
                        return b;
                    }) & tbb::make_filter<Batch*, Batch*>(parallel, [&](Batch* b) {
                        auto const c = times.clock(StageTimes::convert);
                        convert(*b, converters.local(), plan, options, sinks);
                        return b;
                    }) & tbb::make_filter<Batch*, void>(serial_in_order, [&](Batch* b) {
                        auto const c = times.clock(StageTimes::write);
                        writer.write(*b);
                        intake.done(b);
                    }));
    });
    times.print();
}

} // namespace pgn_iccf::batch
