// rss_probe OUT PROGRAM [ARGS...]: runs PROGRAM and writes "STATUS PEAK_KIB\n" to the file OUT
// (its exit status, -1 if a signal ended it, and its peak resident set from wait4).
//
// Linux counts in a child's peak the resident set of the process it was forked from, at the
// fork, and keeps that figure across exec: a run forked from a test process that has grown
// (worker threads, buffers of earlier cases: 15-18 MiB, more with more cores) reads as that
// much larger. This probe is forked and exec'd by such a process; its own figure inherits the
// test's size, but the run is forked from the probe, a small fresh process, and its figure
// is its own.
#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fputs("usage: rss_probe OUT PROGRAM [ARGS...]\n", stderr);
        return 2;
    }
    pid_t const pid = ::fork();
    if (pid < 0) return 3;
    if (pid == 0) {
        ::execv(argv[2], argv + 2);
        ::_exit(127);
    }
    int st = 0;
    struct rusage ru {};
    if (::wait4(pid, &st, 0, &ru) != pid) return 3;
    std::FILE* out = std::fopen(argv[1], "w");
    if (!out) return 3;
    int const status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    bool const ok = std::fprintf(out, "%d %ld\n", status, ru.ru_maxrss) > 0;
    return std::fclose(out) == 0 && ok ? 0 : 3;
}
