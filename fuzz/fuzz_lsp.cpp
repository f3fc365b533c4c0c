// Fuzzes the language server: the input is a session, run through `lsp::serve` as
// `hintkit lsp` runs it (framing, JSON-RPC dispatch, documents, debounced checks, every
// method). Any input must end with the server returning, never a crash, hang or leak.
//
// Input: one JSON-RPC message body per line, each framed with its Content-Length; a first
// line starting with `#` instead hands the rest to the server as raw bytes (framing itself).
// The session always starts with `initialize`, so most inputs get past it. `@DIR@` in the
// input stands for a private folder made at start-up that holds a small workspace (a hint
// beside a helmfile, tazuna.yaml, a ytt schema), so URIs reach files the checks read.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "lsp/lsp.h"

using namespace hintkit;

namespace {

// The workspace, made once per process and removed at exit.
char folder[64];

void write_file(const std::string& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) abort();
  ::close(fd);
}

const char* workspace() {
  if (folder[0] != '\0') return folder;
  const char* tmp = getenv("TMPDIR");
  std::string dir = (tmp                             ? tmp
                     : access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                                                     : "/tmp") +
                    std::string("/hk-fuzz-lsp-XXXXXX");
  if (dir.size() >= sizeof folder || !mkdtemp(dir.data())) abort();
  std::snprintf(folder, sizeof folder, "%s", dir.c_str());
  const std::string d = folder;
  if (::mkdir((d + "/app").c_str(), 0700) != 0 || ::mkdir((d + "/ytt").c_str(), 0700) != 0) abort();
  write_file(
      d + "/app/tazuna.hint.yaml",
      "vars:\n  region:\n    type: string\n    format: hostname\n  zone:\n    type: slice\n");
  write_file(d + "/app/helmfile.yaml", "releases: []\n");
  write_file(d + "/tazuna.yaml",
             "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n"
             "    - name: app\n      type: helmfile\n      path: app\n      helmfile:\n"
             "        vars:\n          regoin: {from: static, static: x}\n");
  write_file(d + "/ytt/schema.yaml", "#@data/values-schema\n---\nreplicas: 1\n");
  atexit([] {
    const std::string dir = folder;
    for (const char* f :
         {"/app/tazuna.hint.yaml", "/app/helmfile.yaml", "/tazuna.yaml", "/ytt/schema.yaml"}) {
      ::unlink((dir + f).c_str());
    }
    ::rmdir((dir + "/app").c_str());
    ::rmdir((dir + "/ytt").c_str());
    ::rmdir(dir.c_str());
  });
  return folder;
}

void append_framed(std::string& out, std::string_view body) {
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out += body;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  const std::string dir = workspace();
  for (size_t at = input.find("@DIR@"); at != std::string::npos; at = input.find("@DIR@", at)) {
    input.replace(at, 5, dir);
    at += dir.size();
  }
  std::string stream;
  append_framed(stream, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})");
  if (!input.empty() && input[0] == '#') {
    stream += std::string_view(input).substr(
        input.find('\n') == std::string::npos ? input.size() : input.find('\n') + 1);
  } else {
    for (size_t begin = 0; begin <= input.size();) {
      size_t end = input.find('\n', begin);
      if (end == std::string::npos) end = input.size();
      if (end > begin) append_framed(stream, std::string_view(input).substr(begin, end - begin));
      begin = end + 1;
    }
  }
  // The session is read from memory (a regular file's descriptor reads without waiting) and
  // the answers go to /dev/null.
  const int in = ::memfd_create("fuzz_lsp", MFD_CLOEXEC);
  const int out = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (in < 0 || out < 0 ||
      ::write(in, stream.data(), stream.size()) != static_cast<ssize_t>(stream.size()) ||
      ::lseek(in, 0, SEEK_SET) != 0) {
    abort();
  }
  lsp::ServerOptions options;
  options.debounce_ms = 0;
  options.finish_checks_at_end = true;
  (void)lsp::serve(in, out, options);
  ::close(in);
  ::close(out);
  return 0;
}
