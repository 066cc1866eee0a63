// Removal of temporary output files when the process is interrupted.
//
// install_signal_cleanup() installs handlers for SIGINT, SIGTERM, SIGHUP and SIGPIPE that unlink
// every registered temporary file and then end the process by the same signal (the shell reports
// 128 + the signal number: 130, 143, 129). The registry is async-signal-safe: fixed slots,
// no allocation in the handler. A signal ignored when install_signal_cleanup() is called
// (nohup, `trap '' HUP`) stays ignored. Idempotent.
#pragma once

#include <string>

namespace pgn_iccf::io {

void install_signal_cleanup();

// Registers a temporary file to remove on a signal; returns a slot number, or -1 when every
// slot is taken (the file is then simply not cleaned up on a signal).
int register_temporary(std::string const& path);
// The file is gone or renamed: forget it.
void unregister_temporary(int slot);

} // namespace pgn_iccf::io
