// `hintkit lsp` round trip: the server runs on its own thread behind two pipes, as an editor
// sees it; each iteration sends one didChange of a 200-var hint file and reads until the
// publishDiagnostics for that version arrives (framing, JSON, the check, and back).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "lsp/lsp.h"

namespace {

std::string hint_text(int vars, int edit) {
  std::string s = "vars:\n";
  for (int i = 0; i < vars; ++i) {
    std::string name = "var" + std::to_string(i);
    s += "  " + name + ":\n    type: string\n    description: var number " + std::to_string(i) +
         "\n";
    if (i % 5 == 0)
      s += "    format: hostname\n    default: host" + std::to_string(i) + ".example.com\n";
    if (i % 7 == 1) s += "    required_with: [var" + std::to_string(i - 1) + "]\n";
  }
  s += "  edited:\n    type: strng\n    description: edit " + std::to_string(edit) + "\n";
  return s;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

void send(int fd, const std::string& body) {
  std::string msg = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  for (size_t off = 0; off < msg.size();) {
    ssize_t n = ::write(fd, msg.data() + off, msg.size() - off);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

// Reads until a message containing `needle` has arrived.
void read_until(int fd, std::string& pending, const std::string& needle) {
  char buf[65536];
  while (pending.find(needle) == std::string::npos) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return;
    pending.append(buf, static_cast<size_t>(n));
  }
  pending.erase(0, pending.find(needle) + needle.size());
}

void BM_DiagnosticsRoundTrip200Vars(benchmark::State& state) {
  int to_server[2], from_server[2];
  if (::pipe(to_server) != 0 || ::pipe(from_server) != 0) return;
  std::thread server(
      [&] { hintkit::lsp::serve(to_server[0], from_server[1], {.debounce_ms = 0}); });
  const std::string uri = "file:///bench/tazuna.hint.yaml";
  std::string pending;
  send(to_server[1], R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  read_until(from_server[0], pending, "\"id\":1");
  send(to_server[1],
       R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":")" +
           uri + R"(","languageId":"yaml","version":1,"text":)" + json_string(hint_text(200, 0)) +
           "}}}");
  read_until(from_server[0], pending, "\"version\":1}");
  int version = 1;
  for (auto _ : state) {
    ++version;
    send(to_server[1],
         R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":")" +
             uri + R"(","version":)" + std::to_string(version) + R"(},"contentChanges":[{"text":)" +
             json_string(hint_text(200, version)) + "}]}}");
    read_until(from_server[0], pending, "\"version\":" + std::to_string(version) + "}");
  }
  send(to_server[1], R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})");
  send(to_server[1], R"({"jsonrpc":"2.0","method":"exit"})");
  server.join();
  for (int fd : {to_server[0], to_server[1], from_server[0], from_server[1]}) ::close(fd);
}
BENCHMARK(BM_DiagnosticsRoundTrip200Vars)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
