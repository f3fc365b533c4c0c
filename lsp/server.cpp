// JSON-RPC dispatch over stdio on Boost.Asio: reads arrive on a stream descriptor, every
// document has a debounce timer, and checks run on the same single thread, so no state is
// shared across threads.
// boost/asio/awaitable.hpp (Boost 1.74) uses std::exchange without including <utility>.
#include <utility>
// clang-format off: <utility> must come first
#include <boost/asio.hpp>
// clang-format on
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "lsp/features.h"
#include "lsp/lsp.h"
#include "lsp/transport.h"
#include "yaml/yaml.h"

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
  kInternalError = -32603,
  kServerNotInitialized = -32002,
};

// --- reading messages ----------------------------------------------------------------------
// Every field is checked before use: a message that lacks one or has it of the wrong type or
// out of range is refused as a whole (an error response, or a notification ignored).

struct BadParams : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json& field(const json& object, const char* key) {
  if (!object.is_object()) throw BadParams(std::string("expected an object holding ") + key);
  auto it = object.find(key);
  if (it == object.end()) throw BadParams(std::string("missing ") + key);
  return *it;
}

std::string string_field(const json& object, const char* key) {
  const json& v = field(object, key);
  if (!v.is_string()) throw BadParams(std::string(key) + " is not a string");
  return v.get<std::string>();
}

// An integer field in [low, high]. Checked on the JSON value, before any conversion: a float
// (1e300) or a 64-bit number converted to int first would be undefined or wrapped.
int int_field(const json& object, const char* key, int64_t low, int64_t high) {
  const json& v = field(object, key);
  bool in_range = false;
  int64_t n = 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    in_range = u <= static_cast<uint64_t>(high);
    n = in_range ? static_cast<int64_t>(u) : 0;
  } else if (v.is_number_integer()) {
    n = v.get<int64_t>();
    in_range = n >= low && n <= high;
  } else {
    throw BadParams(std::string(key) + " is not an integer");
  }
  if (!in_range || n < low) {
    throw BadParams(std::string(key) + " is out of range (" + std::to_string(low) + " to " +
                    std::to_string(high) + ")");
  }
  return static_cast<int>(n);
}

std::string uri_of(const json& params) {
  return string_field(field(params, "textDocument"), "uri");
}

// Document versions are LSP integers: -2^31 to 2^31 - 1.
int version_field(const json& text_document) {
  return int_field(text_document, "version", INT32_MIN, INT32_MAX);
}

Position position_of(const json& p) {
  return {int_field(p, "line", 0, kMaxPosition), int_field(p, "character", 0, kMaxPosition)};
}

Range range_field(const json& r) {
  return {position_of(field(r, "start")), position_of(field(r, "end"))};
}

// JSON nested deeper than this is refused before it is used, as the CLI refuses JSON and
// YAML (the same limit): copies, comparisons and printing of a JSON value recurse per level.
struct TooDeep {};
json parse_message(const std::string& body) {
  auto bounded = [](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= yaml::kMaxDepth) {
      throw TooDeep{};
    }
    return true;
  };
  return json::parse(body, bounded, /*allow_exceptions=*/false);
}

// JSON-RPC ids are strings, numbers or null; anything else cannot be echoed back as one.
bool valid_id(const json& id) { return id.is_string() || id.is_number() || id.is_null(); }

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
        if (!options_.finish_checks_at_end) io_.stop();
        return;  // else run() returns once the timers have fired
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

  // One message, one outcome: every exception stops here, so a bad message costs one error
  // response (or, for a notification, a line on stderr) and the server goes on.
  void on_message(const std::string& body) {
    json message;
    try {
      message = parse_message(body);
    } catch (const TooDeep&) {
      return reply_error(nullptr, kParseError,
                         "JSON nests deeper than " + std::to_string(yaml::kMaxDepth) + " levels");
    }
    if (message.is_discarded()) return reply_error(nullptr, kParseError, "malformed JSON");
    if (!message.is_object()) {
      return reply_error(nullptr, kInvalidRequest, "not a JSON-RPC request or notification");
    }
    const auto id_it = message.find("id");
    const json id = id_it != message.end() && valid_id(*id_it) ? *id_it : json();
    const auto method_it = message.find("method");
    if (method_it == message.end() || !method_it->is_string() ||
        (id_it != message.end() && !valid_id(*id_it))) {
      if (id_it != message.end() && method_it == message.end()) {
        return;  // a response to a request of ours: none are sent today
      }
      return reply_error(id, kInvalidRequest, "not a JSON-RPC request or notification");
    }
    const std::string method = method_it->get<std::string>();
    const auto params_it = message.find("params");
    const json params = params_it != message.end() ? *params_it : json::object();
    const bool is_request = id_it != message.end();
    try {
      if (is_request) {
        request(id, method, params);
      } else {
        notification(method, params);
      }
    } catch (const std::exception& e) {
      const bool bad_params =
          dynamic_cast<const BadParams*>(&e) || dynamic_cast<const json::exception*>(&e);
      const std::string why =
          (bad_params ? "invalid params: " : "internal error: ") + std::string(e.what());
      if (is_request) {
        reply_error(id, bad_params ? kInvalidParams : kInternalError, why);
      } else {
        log("ignored " + method + ": " + why);
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
                      {"completionProvider", {{"triggerCharacters", {" ", ":", "[", ",", ".", "\""}}}},
                      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
                    {"serverInfo", {{"name", "hintkit"}, {"version", HINTKIT_VERSION}}}});
    }
    if (!initialized_) return reply_error(id, kServerNotInitialized, "initialize first");
    if (shutdown_) return reply_error(id, kInvalidRequest, "the server is shutting down");
    if (method == "shutdown") {
      shutdown_ = true;
      return reply(id, nullptr);
    }
    if (method == "hintkit/stats") {  // for tests: how many checks the debounce let through
      return reply(id,
                   {{"checks", checks_}, {"documents", docs_.size()}, {"timers", timers_.size()}});
    }
    const bool about_document = method == "textDocument/hover" ||
                                method == "textDocument/completion" ||
                                method == "textDocument/codeAction";
    if (!about_document) return reply_error(id, kMethodNotFound, "unknown method " + method);
    auto it = docs_.find(uri_of(params));
    const Document* doc = it != docs_.end() ? &it->second : nullptr;
    auto open = open_text();
    if (method == "textDocument/hover") {
      const Position p = position_of(field(params, "position"));
      return reply(id, doc ? hover(*doc, p.line, p.character, open) : json());
    }
    if (method == "textDocument/completion") {
      const Position p = position_of(field(params, "position"));
      return reply(id, doc ? completion(*doc, p.line, p.character, open) : json::array());
    }
    const Range range = range_field(field(params, "range"));
    return reply(id, doc ? code_actions(*doc, range, open) : json::array());
  }

  void notification(const std::string& method, const json& params) {
    if (method == "exit") {
      exited_ = true;
      io_.stop();
      return;
    }
    if (method == "textDocument/didOpen") {
      const json& td = field(params, "textDocument");
      Document doc;
      doc.uri = string_field(td, "uri");
      doc.path = path_of_uri(doc.uri);
      doc.text = string_field(td, "text");
      doc.version = td.contains("version") ? version_field(td) : 0;
      doc.kind = classify(doc.path, doc.text);
      const std::string uri = doc.uri;
      docs_[uri] = std::move(doc);
      refresh_hints_of(uri, 0);
      return schedule(uri, 0);
    }
    if (method == "textDocument/didChange") {
      const json& td = field(params, "textDocument");
      auto it = docs_.find(string_field(td, "uri"));
      const json& changes = field(params, "contentChanges");
      if (!changes.is_array()) throw BadParams("contentChanges is not an array");
      if (it == docs_.end() || changes.empty()) return;  // state only for open documents
      // Full sync (textDocumentSync.change = 1): the last change holds the whole text.
      std::string text = string_field(changes.back(), "text");
      const int version = td.contains("version") ? version_field(td) : it->second.version;
      Document& doc = it->second;
      doc.text = std::move(text);
      doc.version = version;
      doc.kind = classify(doc.path, doc.text);
      refresh_hints_of(doc.uri, options_.debounce_ms);
      return schedule(doc.uri, options_.debounce_ms);
    }
    if (method == "textDocument/didSave") {
      refresh_hints_of(uri_of(params), 0);
      return schedule(uri_of(params), 0);
    }
    if (method == "textDocument/didClose") {
      const std::string uri = uri_of(params);
      if (docs_.erase(uri) == 0) return;  // never opened: nothing to clear
      timers_.erase(uri);
      send({{"jsonrpc", "2.0"},
            {"method", "textDocument/publishDiagnostics"},
            {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
      return;
    }
    if (method == "workspace/didChangeWatchedFiles") {  // a hint changed on disk
      for (auto& [uri, doc] : docs_) {
        if (doc.kind == DocKind::kConfig || doc.kind == DocKind::kHelmfile) schedule(uri, 0);
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

  // A hint reports the vars its folder's helmfile never uses: an edit of an open helmfile
  // re-checks the open hints of its folder. Done here, on the edit, not in check(): a hint's
  // check re-schedules the helmfiles, and the other way round would never stop.
  void refresh_hints_of(const std::string& uri, int delay_ms) {
    auto it = docs_.find(uri);
    if (it == docs_.end() || it->second.kind != DocKind::kHelmfile) return;
    const std::string dir = it->second.path.substr(0, it->second.path.rfind('/') + 1);
    for (auto& [other_uri, other] : docs_) {
      if (other.kind == DocKind::kHint && !dir.empty() && other.path.rfind(dir, 0) == 0 &&
          other.path.find('/', dir.size()) == std::string::npos) {
        schedule(other_uri, delay_ms);
      }
    }
  }

  // Timers exist only for open documents: a save or a refresh of any other URI is ignored,
  // so no message makes state that closing a document would not clear.
  void schedule(const std::string& uri, int delay_ms) {
    if (!docs_.contains(uri)) return;
    auto& timer = timers_[uri];
    if (!timer) timer = std::make_unique<asio::steady_timer>(io_);
    timer->expires_after(std::chrono::milliseconds(delay_ms));
    timer->async_wait([this, uri](boost::system::error_code ec) {
      if (ec) return;
      // A check runs outside any message: its failure is logged, the server goes on.
      try {
        check(uri);
      } catch (const std::exception& e) {
        log("check of " + uri + " failed: " + e.what());
      }
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
    // tazuna.yaml and the helmfile templates are checked against the hints: refresh them.
    if (doc.kind == DocKind::kHint) {
      for (auto& [other_uri, other] : docs_) {
        if (other.kind == DocKind::kConfig || other.kind == DocKind::kHelmfile) {
          schedule(other_uri, 0);
        }
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
