// Byte sinks: where output goes. An output file is written under a temporary name in its
// final folder (created with O_CREAT|O_EXCL, so a planted symbolic link is never followed)
// and renamed into place by commit(); until then the final name is untouched, and the
// temporary is removed by abandon(), by the destructor, and on SIGINT/SIGTERM/SIGHUP (see
// cleanup.hpp). After SIGKILL or a power cut a stale temporary may remain; its name is the
// final name followed by ".pgn-iccf-tmp." and six random characters.
//
// The final file gets the mode of the file it replaces, or 0666 less the umask (the
// temporary is 0600 until then). A symbolic link is written through, as the shell's `>`
// does: the temporary is made next to the file the link points to and renamed onto it, so
// the link stays a link. Devices and pipes (/dev/null, a FIFO) are written in place.
// There is no fsync: a crash may lose a committed output, never half-replace one.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace pgn_iccf::io {

class ByteSink {
public:
    virtual ~ByteSink() = default;
    // Writes all of `bytes`; false on failure (sticky: later writes fail too).
    virtual bool write(std::string_view bytes) = 0;
    // The first half of commit(): writes out what is buffered and, for a file, closes the
    // temporary, so that every write error (a full disk shows at the latest at close) is
    // known; nothing is renamed yet and later writes fail. False with `error` filled on
    // failure; the temporary is then removed. Lets a caller with two outputs that stand or
    // fall together (the output and the rejects file) rename neither unless both are whole.
    // Idempotent.
    virtual bool prepare(std::string& error) = 0;
    // Completes the output (prepare(), then for a file: rename into place). False with `error`
    // filled ("cannot write PATH: reason") on failure; the temporary is then removed.
    virtual bool commit(std::string& error) = 0;
    // Gives up: removes the temporary (the final name keeps what it had). Idempotent.
    virtual void abandon() = 0;
    // The error of the first failed write ("cannot write PATH: reason"), or "".
    virtual std::string error() const = 0;
};

// Standard output (descriptor 1). Every write goes straight to the descriptor, so output
// streams as it is produced.
std::unique_ptr<ByteSink> open_stdout();

// An output file, as described above; nullptr with `error` filled if the temporary cannot be
// created ("cannot write PATH: reason").
std::unique_ptr<ByteSink> open_file_sink(std::string const& path, std::string& error);

} // namespace pgn_iccf::io
