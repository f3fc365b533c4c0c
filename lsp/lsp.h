// The language server behind `hintkit lsp`: diagnostics, hover, completion and code actions
// for `tazuna.hint.yaml`, `tazuna.yaml` and ytt data values files, over stdio as the Language
// Server Protocol says (JSON-RPC 2.0 with Content-Length framing).
//
// Entry point: `serve(in_fd, out_fd, options)` runs until `exit` (or end of input) and returns
// the process exit code (0 after `shutdown`, 1 otherwise, as the protocol asks).
//
// Where to start: transport.h (framing), server.cpp (JSON-RPC dispatch, documents, debounced
// checks on Boost.Asio timers), features.cpp (what each kind of file gets), positions.h
// (hintkit's 1-based byte columns <-> LSP's 0-based UTF-16 positions).
#pragma once

namespace hintkit::lsp {

struct ServerOptions {
  // Checks run this long after the last edit of a document: an edit storm (a held key,
  // a paste that arrives as many changes) costs one check, not one per change.
  int debounce_ms = 200;
  // At the end of input, run the checks already scheduled before returning (they publish into
  // the output as usual). The editor is gone by then, so `hintkit lsp` stops at once; the fuzz
  // target sets this (with debounce_ms 0) so that one input exercises its checks too.
  bool finish_checks_at_end = false;
};

int serve(int in_fd, int out_fd, const ServerOptions& options = {});

}  // namespace hintkit::lsp
