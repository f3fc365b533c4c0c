// JSON-RPC dispatch over stdio on Boost.Asio: reads arrive on a stream descriptor, every
// document has a debounce timer, and checks run on the same single thread, so no state is
// shared across threads.
// boost/asio/awaitable.hpp (Boost 1.74) uses std::exchange without including <utility>.
#include <utility>
// clang-format off: <utility> must come first
#include <boost/asio.hpp>
// clang-format on
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "lsp/features.h"
#include "lsp/lsp.h"
#include "lsp/transport.h"

namespace hintkit::lsp {
namespace asio = boost::asio;
using nlohmann::json;

namespace {

// JSON-RPC and LSP error codes.
enum ErrorCode {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kServerNotInitialized = -32002,
};

class Server {
 public:
  Server(asio::io_context& io, int in_fd, int out_fd, const ServerOptions& options)
      : io_(io), in_(io, ::dup(in_fd)), out_(io, ::dup(out_fd)), options_(options) {}

  int run() {
    read();
    io_.run();
    return shutdown_ ? 0 : 1;
  }

 private:
  void read() {
    in_.async_read_some(asio::buffer(buffer_), [this](boost::system::error_code ec, size_t n) {
      if (ec) {  // end of input: the client is gone
        io_.stop();
        return;
      }
      framer_.feed(std::string_view(buffer_.data(), n));
      while (auto body = framer_.next()) {
        on_message(*body);
        if (exited_) return;
      }
      if (auto error = framer_.take_error()) log("dropped input: " + *error);
      read();
    });
  }

  void log(const std::string& message) { std::cerr << "hintkit lsp: " << message << '\n'; }

  void send(const json& message) {
    std::string bytes = frame(message.dump(-1, ' ', false, json::error_handler_t::replace));
    boost::system::error_code ec;
    asio::write(out_, asio::buffer(bytes), ec);
    if (ec) io_.stop();
  }

  void reply(const json& id, json result) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
  }

  void reply_error(const json& id, int code, const std::string& message) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }

  void on_message(const std::string& body) {
    json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (message.is_discarded()) return reply_error(nullptr, kParseError, "malformed JSON");
    if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
      if (message.is_object() && message.contains("id") && !message.contains("method")) {
        return;  // a response to a request of ours: none are sent today
      }
      return reply_error(message.is_object() && message.contains("id") ? message["id"] : json(),
                         kInvalidRequest, "not a JSON-RPC request or notification");
    }
    const std::string method = message["method"];
    const json params = message.value("params", json::object());
    if (message.contains("id")) {
      const json id = message["id"];
      try {
        request(id, method, params);
      } catch (const json::exception& e) {
        reply_error(id, kInvalidParams, std::string("invalid params: ") + e.what());
      }
    } else {
      try {
        notification(method, params);
      } catch (const json::exception& e) {
        log("ignored " + method + ": " + e.what());
      }
    }
  }

  void request(const json& id, const std::string& method, const json& params) {
    if (method == "initialize") {
      initialized_ = true;
      return reply(id,
                   {{"capabilities",
                     {{"textDocumentSync",
                       {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
                      {"hoverProvider", true},
                      {"completionProvider", {{"triggerCharacters", {" ", ":", "[", ","}}}},
                      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
                    {"serverInfo", {{"name", "hintkit"}}}});
    }
    if (!initialized_) return reply_error(id, kServerNotInitialized, "initialize first");
    if (shutdown_) return reply_error(id, kInvalidRequest, "the server is shutting down");
    if (method == "shutdown") {
      shutdown_ = true;
      return reply(id, nullptr);
    }
    if (method == "hintkit/stats") {  // for tests: how many checks the debounce let through
      return reply(id, {{"checks", checks_}, {"documents", docs_.size()}});
    }
    const Document* doc = nullptr;
    if (params.contains("textDocument")) {
      auto it = docs_.find(params.at("textDocument").at("uri").get<std::string>());
      if (it != docs_.end()) doc = &it->second;
    }
    auto open = open_text();
    if (method == "textDocument/hover") {
      if (!doc) return reply(id, nullptr);
      const json& p = params.at("position");
      return reply(id, hover(*doc, p.at("line"), p.at("character"), open));
    }
    if (method == "textDocument/completion") {
      if (!doc) return reply(id, json::array());
      const json& p = params.at("position");
      return reply(id, completion(*doc, p.at("line"), p.at("character"), open));
    }
    if (method == "textDocument/codeAction") {
      if (!doc) return reply(id, json::array());
      return reply(id, code_actions(*doc, params.at("range"), open));
    }
    reply_error(id, kMethodNotFound, "unknown method " + method);
  }

  void notification(const std::string& method, const json& params) {
    if (method == "exit") {
      exited_ = true;
      io_.stop();
      return;
    }
    if (method == "textDocument/didOpen") {
      const json& td = params.at("textDocument");
      Document doc;
      doc.uri = td.at("uri");
      doc.path = path_of_uri(doc.uri);
      doc.text = td.at("text");
      doc.version = td.value("version", 0);
      doc.kind = classify(doc.path, doc.text);
      const std::string uri = doc.uri;
      docs_[uri] = std::move(doc);
      return schedule(uri, 0);
    }
    if (method == "textDocument/didChange") {
      auto it = docs_.find(params.at("textDocument").at("uri").get<std::string>());
      const json& changes = params.at("contentChanges");
      if (it == docs_.end() || !changes.is_array() || changes.empty()) return;
      Document& doc = it->second;
      doc.text = changes.back().at("text");
      doc.version = params.at("textDocument").value("version", doc.version);
      doc.kind = classify(doc.path, doc.text);
      return schedule(doc.uri, options_.debounce_ms);
    }
    if (method == "textDocument/didSave") {
      return schedule(params.at("textDocument").at("uri"), 0);
    }
    if (method == "textDocument/didClose") {
      const std::string uri = params.at("textDocument").at("uri");
      docs_.erase(uri);
      timers_.erase(uri);
      send({{"jsonrpc", "2.0"},
            {"method", "textDocument/publishDiagnostics"},
            {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
      return;
    }
    if (method == "workspace/didChangeWatchedFiles") {  // a hint changed on disk
      for (auto& [uri, doc] : docs_) {
        if (doc.kind == DocKind::kConfig) schedule(uri, 0);
      }
      return;
    }
    // initialized, $/cancelRequest (requests are answered at once, nothing to cancel),
    // $/setTrace and anything else: nothing to do.
  }

  OpenText open_text() {
    return [this](const std::string& path) -> const std::string* {
      for (const auto& [uri, doc] : docs_) {
        if (doc.path == path) return &doc.text;
      }
      return nullptr;
    };
  }

  void schedule(const std::string& uri, int delay_ms) {
    auto& timer = timers_[uri];
    if (!timer) timer = std::make_unique<asio::steady_timer>(io_);
    timer->expires_after(std::chrono::milliseconds(delay_ms));
    timer->async_wait([this, uri](boost::system::error_code ec) {
      if (!ec) check(uri);
    });
  }

  void check(const std::string& uri) {
    auto it = docs_.find(uri);
    if (it == docs_.end()) return;
    ++checks_;
    const Document& doc = it->second;
    json diags = diagnostics(doc, open_text());
    send({{"jsonrpc", "2.0"},
          {"method", "textDocument/publishDiagnostics"},
          {"params", {{"uri", uri}, {"version", doc.version}, {"diagnostics", diags}}}});
    // tazuna.yaml is checked against the hints next to its helmfiles: refresh open configs.
    if (doc.kind == DocKind::kHint) {
      for (auto& [other_uri, other] : docs_) {
        if (other.kind == DocKind::kConfig) schedule(other_uri, 0);
      }
    }
  }

  asio::io_context& io_;
  asio::posix::stream_descriptor in_;
  asio::posix::stream_descriptor out_;
  ServerOptions options_;
  std::array<char, 64 * 1024> buffer_{};
  Framer framer_;
  std::map<std::string, Document> docs_;
  std::map<std::string, std::unique_ptr<asio::steady_timer>> timers_;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
  size_t checks_ = 0;
};

}  // namespace

int serve(int in_fd, int out_fd, const ServerOptions& options) {
  asio::io_context io;
  Server server(io, in_fd, out_fd, options);
  return server.run();
}

}  // namespace hintkit::lsp
