// Removal of temporary output files when the process is interrupted.
//
// install_signal_cleanup() installs handlers for SIGINT, SIGTERM, SIGHUP and SIGPIPE that unlink
// every registered temporary file, remove every registered folder that is empty by then
// (newest first, so a folder's subfolders go before it), and then end the process by the same
// signal (the shell reports 128 + the signal number: 130, 143, 129). The registry is
// async-signal-safe: fixed slots, no allocation in the handler. A signal ignored when
// install_signal_cleanup() is called (nohup, `trap '' HUP`) stays ignored. Idempotent.
#pragma once

#include <string>
#include <system_error>
#include <vector>

namespace pgn_iccf::io {

void install_signal_cleanup();

// Registers a temporary file to remove on a signal; returns a slot number, or -1 when every
// slot is taken (the file is then simply not cleaned up on a signal).
int register_temporary(std::string const& path);
// The file is gone or renamed: forget it.
void unregister_temporary(int slot);

// Registers a folder the run created, to remove on a signal if it is empty then (rmdir(2)
// removes nothing else). Folders are kept in a list that only grows (one small node each);
// the handler walks it newest first.
void register_directory(std::string const& path);
// Forgets every registered folder (the run removed or kept them itself).
void unregister_directories();

// The folders a run created, parents first. When the owner goes (by any path) those left
// empty are removed, children first, so that a run stopped by a full disk, a name too long or
// inputs that could not be read leaves no empty mirror tree; a signal removes them too
// (register_directory). rmdir(2) removes only an empty folder: one holding anything, a
// user's file put there meanwhile included, stays.
class CreatedFolders {
public:
    CreatedFolders() = default;
    CreatedFolders(CreatedFolders const&) = delete;
    CreatedFolders& operator=(CreatedFolders const&) = delete;
    ~CreatedFolders();
    // Creates `dir` (its parent exists) unless it is a folder already; false with `error`
    // set when it is not a folder afterwards.
    bool create(std::string const& dir, std::error_code& error);

private:
    std::vector<std::string> dirs_;
};

} // namespace pgn_iccf::io
