// `@ytt:url` and `@ytt:ip`: ports of the parts of Go's net/url and net that ytt exposes.
// url: PathEscape/QueryEscape and their inverses, ParseQuery/Values.Encode, Parse with
// URL.String, Hostname and Userinfo. ip: ParseIP and ParseCIDR (validity from formats/, which
// follows Go's grammar) with Go's IP.String and IPNet.String. Parsed values are module values
// that refuse to become YAML ("use .string()"), as ytt's do.
#include <algorithm>
#include <array>
#include <map>

#include "formats/formats.h"
#include "gocompat/gocompat.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

// ---- net/url ----

using Enc = gocompat::UrlEncoding;

int unhex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

constexpr std::string_view kValidAsEncoded = "!$&'()*+,;=:@[]%";

bool should_escape(unsigned char c, Enc mode) { return gocompat::url_should_escape(c, mode); }
std::string escape(std::string_view s, Enc mode) { return gocompat::url_escape(s, mode); }
bool unescape(std::string_view s, Enc mode, std::string& out, std::string& error) {
  return gocompat::url_unescape(s, mode, out, error);
}

bool valid_optional_port(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  return std::all_of(port.begin() + 1, port.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct Url {
  std::string scheme, opaque, host, path, raw_path, raw_query, fragment, raw_fragment;
  bool has_user = false, password_set = false, force_query = false, omit_host = false;
  std::string username, password;

  std::string escaped_path() const {
    if (!raw_path.empty() && valid_encoded(raw_path, Enc::kPath)) {
      std::string p, err;
      if (unescape(raw_path, Enc::kPath, p, err) && p == path) return raw_path;
    }
    if (path == "*") return "*";
    return escape(path, Enc::kPath);
  }
  std::string escaped_fragment() const {
    if (!raw_fragment.empty() && valid_encoded(raw_fragment, Enc::kFragment)) {
      std::string f, err;
      if (unescape(raw_fragment, Enc::kFragment, f, err) && f == fragment) return raw_fragment;
    }
    return escape(fragment, Enc::kFragment);
  }
  std::string user_string() const {
    std::string s = escape(username, Enc::kUserPassword);
    if (password_set) s += ":" + escape(password, Enc::kUserPassword);
    return s;
  }
  std::string hostname() const {
    std::string h = host;
    size_t colon = h.rfind(':');
    if (colon != std::string::npos && valid_optional_port(std::string_view(h).substr(colon))) {
      h = h.substr(0, colon);
    }
    if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
    return h;
  }
  std::string str() const {
    std::string buf;
    if (!scheme.empty()) buf += scheme + ":";
    if (!opaque.empty()) {
      buf += opaque;
    } else {
      if (!scheme.empty() || !host.empty() || has_user) {
        if (!(omit_host && host.empty() && !has_user)) {
          if (!host.empty() || !path.empty() || has_user) buf += "//";
          if (has_user) buf += user_string() + "@";
          if (!host.empty()) buf += escape(host, Enc::kHost);
        }
      }
      std::string p = escaped_path();
      if (!p.empty() && p[0] != '/' && !host.empty()) buf += '/';
      if (buf.empty()) {
        std::string_view seg = std::string_view(p).substr(0, p.find('/'));
        if (seg.find(':') != std::string_view::npos) buf += "./";
      }
      buf += p;
    }
    if (force_query || !raw_query.empty()) buf += "?" + raw_query;
    if (!fragment.empty()) buf += "#" + escaped_fragment();
    return buf;
  }

  static bool valid_encoded(std::string_view s, Enc mode) {
    // The sub-delims, ':', '@', '[]' and '%' are valid as they are (Go's validEncoded).
    for (unsigned char c : s) {
      if (kValidAsEncoded.find(char(c)) != kValidAsEncoded.npos) continue;
      if (should_escape(c, mode)) return false;
    }
    return true;
  }
};

bool valid_userinfo(std::string_view s) {
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) continue;
    switch (c) {
      case '-':
      case '.':
      case '_':
      case ':':
      case '~':
      case '!':
      case '$':
      case '&':
      case '\'':
      case '(':
      case ')':
      case '*':
      case '+':
      case ',':
      case ';':
      case '=':
      case '%':
      case '@':
        continue;
      default:
        return false;
    }
  }
  return true;
}

bool parse_host(std::string_view host, std::string& out, std::string& error) {
  if (!host.empty() && host[0] == '[') {
    size_t i = host.rfind(']');
    if (i == std::string_view::npos) {
      error = "missing ']' in host";
      return false;
    }
    std::string_view colon_port = host.substr(i + 1);
    if (!valid_optional_port(colon_port)) {
      error = "invalid port " + gocompat::quote(colon_port) + " after host";
      return false;
    }
    size_t zone = host.substr(0, i).find("%25");
    if (zone != std::string_view::npos) {
      std::string h1, h2, h3;
      if (!unescape(host.substr(0, zone), Enc::kHost, h1, error)) return false;
      if (!unescape(host.substr(zone, i - zone), Enc::kZone, h2, error)) return false;
      if (!unescape(host.substr(i), Enc::kHost, h3, error)) return false;
      out = h1 + h2 + h3;
      return true;
    }
  } else if (size_t i = host.rfind(':'); i != std::string_view::npos) {
    std::string_view colon_port = host.substr(i);
    if (!valid_optional_port(colon_port)) {
      error = "invalid port " + gocompat::quote(colon_port) + " after host";
      return false;
    }
  }
  return unescape(host, Enc::kHost, out, error);
}

// Go's url.Parse; error text without the `parse "..."` wrapper.
bool parse_url(std::string_view raw, Url& u, std::string& error) {
  std::string_view rest = raw;
  for (unsigned char c : raw) {
    if (c < ' ' || c == 0x7f) {
      error = "net/url: invalid control character in URL";
      return false;
    }
  }
  if (raw == "*") {
    u.path = "*";
    return true;
  }
  for (size_t i = 0; i < raw.size(); ++i) {  // the scheme
    char c = raw[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
      if (i == 0) break;
      continue;
    }
    if (c == ':') {
      if (i == 0) {
        error = "missing protocol scheme";
        return false;
      }
      u.scheme = std::string(raw.substr(0, i));
      std::transform(u.scheme.begin(), u.scheme.end(), u.scheme.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      rest = raw.substr(i + 1);
    }
    break;
  }
  if (!rest.empty() && rest.back() == '?' && std::count(rest.begin(), rest.end(), '?') == 1) {
    u.force_query = true;
    rest.remove_suffix(1);
  } else if (size_t q = rest.find('?'); q != std::string_view::npos) {
    u.raw_query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  if (rest.empty() || rest[0] != '/') {
    if (!u.scheme.empty()) {
      u.opaque = std::string(rest);
      return true;
    }
    std::string_view seg = rest.substr(0, rest.find('/'));
    if (seg.find(':') != std::string_view::npos) {
      error = "first path segment in URL cannot contain colon";
      return false;
    }
  }
  if ((!u.scheme.empty() || rest.substr(0, 3) != "///") && rest.substr(0, 2) == "//") {
    std::string_view authority = rest.substr(2);
    rest = {};
    if (size_t i = authority.find('/'); i != std::string_view::npos) {
      rest = authority.substr(i);
      authority = authority.substr(0, i);
    }
    size_t at = authority.rfind('@');
    std::string_view host_part =
        at == std::string_view::npos ? authority : authority.substr(at + 1);
    if (!parse_host(host_part, u.host, error)) return false;
    if (at != std::string_view::npos) {
      std::string_view userinfo = authority.substr(0, at);
      if (!valid_userinfo(userinfo)) {
        error = "net/url: invalid userinfo";
        return false;
      }
      u.has_user = true;
      size_t colon = userinfo.find(':');
      if (!unescape(userinfo.substr(0, colon), Enc::kUserPassword, u.username, error)) return false;
      if (colon != std::string_view::npos) {
        u.password_set = true;
        if (!unescape(userinfo.substr(colon + 1), Enc::kUserPassword, u.password, error)) {
          return false;
        }
      }
    }
  } else if (!u.scheme.empty() && !rest.empty() && rest[0] == '/') {
    u.omit_host = true;
  }
  if (!unescape(rest, Enc::kPath, u.path, error)) return false;
  if (escape(u.path, Enc::kPath) != rest) u.raw_path = std::string(rest);
  return true;
}

// ---- values ----

sl::Value method(std::string name, std::function<sl::Result<sl::Value>()> fn) {
  return sl::make_builtin(std::move(name), [fn](const sl::Call& c) -> sl::Result<sl::Value> {
    if (!c.args.empty()) return ytt_fail(c, "expected no argument");
    return fn();
  });
}

sl::Value url_user_value(const Url& u) {
  if (!u.has_user) return sl::Value::none();
  Url copy = u;
  return make_module_value(
      "url.user", {{"name", sl::Value::from_string(u.username)},
                   {"password", u.password_set ? sl::Value::from_string(u.password) : sl::Value()},
                   {"string", method("string", [copy] {
                      return sl::Result<sl::Value>(sl::Value::from_string(copy.user_string()));
                    })}});
}

sl::Value url_value(const Url& u) {
  return make_module_value(
      "url.value",
      {{"user", url_user_value(u)},
       {"without_user", method("url.value.without_user",
                               [u] {
                                 Url w = u;
                                 w.has_user = false;
                                 w.password_set = false;
                                 w.username.clear();
                                 w.password.clear();
                                 return sl::Result<sl::Value>(url_value(w));
                               })},
       {"string", method("url.value.string",
                         [u] { return sl::Result<sl::Value>(sl::Value::from_string(u.str())); })},
       {"hostname", method("url.value.hostname", [u] {
          return sl::Result<sl::Value>(sl::Value::from_string(u.hostname()));
        })}});
}

// ---- net ----

using Ip = std::array<uint8_t, 16>;

bool is_v4_mapped(const Ip& ip) {
  for (int i = 0; i < 10; ++i)
    if (ip[i] != 0) return false;
  return ip[10] == 0xff && ip[11] == 0xff;
}

// The bytes of an address that formats::check has accepted (Go's grammar).
Ip ip_bytes(std::string_view s) {
  Ip ip{};
  auto v4 = [](std::string_view t, uint8_t* out) {
    int part = 0, value = 0;
    for (char c : t) {
      if (c == '.') {
        out[part++] = static_cast<uint8_t>(value);
        value = 0;
      } else {
        value = value * 10 + (c - '0');
      }
    }
    out[part] = static_cast<uint8_t>(value);
  };
  if (s.find(':') == std::string_view::npos) {
    ip[10] = ip[11] = 0xff;
    v4(s, ip.data() + 12);
    return ip;
  }
  std::vector<uint8_t> head, tail;
  bool after_gap = false;
  size_t i = 0;
  if (s.substr(0, 2) == "::") {
    after_gap = true;
    i = 2;
  }
  while (i < s.size()) {
    size_t end = s.find(':', i);
    std::string_view group = s.substr(i, end == std::string_view::npos ? end : end - i);
    auto& out = after_gap ? tail : head;
    if (group.find('.') != std::string_view::npos) {
      uint8_t b[4];
      v4(group, b);
      out.insert(out.end(), b, b + 4);
    } else {
      int v = 0;
      for (char c : group) v = v * 16 + unhex(c);
      out.push_back(static_cast<uint8_t>(v >> 8));
      out.push_back(static_cast<uint8_t>(v & 0xff));
    }
    if (end == std::string_view::npos) break;
    i = end + 1;
    if (i < s.size() && s[i] == ':') {
      after_gap = true;
      ++i;
    }
  }
  std::copy(head.begin(), head.end(), ip.begin());
  std::copy(tail.begin(), tail.end(), ip.end() - static_cast<long>(tail.size()));
  return ip;
}

std::string ip_string(const Ip& ip) {
  if (is_v4_mapped(ip)) {
    return std::to_string(ip[12]) + "." + std::to_string(ip[13]) + "." + std::to_string(ip[14]) +
           "." + std::to_string(ip[15]);
  }
  int best = -1, best_len = 0;
  for (int i = 0; i < 8;) {
    if (ip[2 * i] == 0 && ip[2 * i + 1] == 0) {
      int j = i;
      while (j < 8 && ip[2 * j] == 0 && ip[2 * j + 1] == 0) ++j;
      if (j - i >= 2 && j - i > best_len) {
        best = i;
        best_len = j - i;
      }
      i = j;
    } else {
      ++i;
    }
  }
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    unsigned v = (ip[2 * i] << 8) | ip[2 * i + 1];
    std::string g;
    do {
      g.insert(g.begin(), kHex[v & 15]);
      v >>= 4;
    } while (v);
    out += g;
  }
  return out;
}

sl::Value ip_addr_value(const Ip& ip) {
  return make_module_value(
      "ip.addr",
      {{"is_ipv4",
        method("ip.addr.is_ipv4",
               [ip] { return sl::Result<sl::Value>(sl::Value::from_bool(is_v4_mapped(ip))); })},
       {"is_ipv6",
        method("ip.addr.is_ipv6",
               [ip] { return sl::Result<sl::Value>(sl::Value::from_bool(!is_v4_mapped(ip))); })},
       {"string", method("ip.addr.string", [ip] {
          return sl::Result<sl::Value>(sl::Value::from_string(ip_string(ip)));
        })}});
}

// Go's IPNet.String for a net from ParseCIDR: the masked address and the prefix length (a
// 128-bit mask over an IPv4-mapped address counts from bit 96).
sl::Value ip_net_value(const Ip& masked, int bits, bool v4) {
  int shown = v4 || !is_v4_mapped(masked) ? bits : bits - 96;
  std::string text = ip_string(masked) + "/" + std::to_string(shown);
  return make_module_value(
      "ip.net",
      {{"addr",
        method("ip.net.addr", [masked] { return sl::Result<sl::Value>(ip_addr_value(masked)); })},
       {"string", method("ip.net.string",
                         [text] { return sl::Result<sl::Value>(sl::Value::from_string(text)); })}});
}

sl::Value string_fn(std::string name,
                    std::function<sl::Result<sl::Value>(const sl::Call&, std::string_view)> fn) {
  return sl::make_builtin(std::move(name), [fn](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
    std::string_view s;
    if (auto e = want_string(c, c.args[0], s)) return *e;
    return fn(c, s);
  });
}

// Go's %T of a url argument as ytt's url module converts it: fragments become Go maps and
// slices there, not YAML nodes.
std::string url_arg_go_type(const sl::Value& v) {
  if (DPtr n = fragment_node(v))
    return n->is_map() ? gocompat::kOrderedMapType : gocompat::kSliceType;
  return go_value_type(v);
}

}  // namespace

sl::Value url_module() {
  auto path_encode = string_fn("url.path_segment_encode",
                               [](const sl::Call&, std::string_view s) -> sl::Result<sl::Value> {
                                 return sl::Value::from_string(escape(s, Enc::kPathSegment));
                               });
  auto path_decode = string_fn("url.path_segment_decode",
                               [](const sl::Call& c, std::string_view s) -> sl::Result<sl::Value> {
                                 std::string out, err;
                                 if (!unescape(s, Enc::kPathSegment, out, err))
                                   return ytt_fail(c, err);
                                 return sl::Value::from_string(out);
                               });
  auto value_encode = string_fn("url.query_param_value_encode",
                                [](const sl::Call&, std::string_view s) -> sl::Result<sl::Value> {
                                  return sl::Value::from_string(escape(s, Enc::kQueryComponent));
                                });
  auto value_decode = string_fn("url.query_param_value_decode",
                                [](const sl::Call& c, std::string_view s) -> sl::Result<sl::Value> {
                                  std::string out, err;
                                  if (!unescape(s, Enc::kQueryComponent, out, err))
                                    return ytt_fail(c, err);
                                  return sl::Value::from_string(out);
                                });
  auto params_encode =
      sl::make_builtin("url.query_params_encode", [](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
        if (auto hint = conversion_hint(c.args[0]))
          return ytt_fail(c, "Unable to convert value: " + *hint);
        DPtr m = from_starlark(c.args[0], {});
        if (url_arg_go_type(c.args[0]) != gocompat::kOrderedMapType || !m->is_map()) {
          return ytt_fail(c,
                          "expected argument to be a map, but was " + url_arg_go_type(c.args[0]));
        }
        std::map<std::string, std::vector<std::string>> values;  // Encode sorts by key
        for (const auto& e : m->entries) {
          if (e.key.kind != yaml::Kind::kString) {
            std::string t = e.key.kind == yaml::Kind::kInt     ? "int64"
                            : e.key.kind == yaml::Kind::kBool  ? "bool"
                            : e.key.kind == yaml::Kind::kFloat ? "float64"
                                                               : "<nil>";
            return ytt_fail(c, "expected map key to be string, but was " + t);
          }
          if (!e.value->is_array()) {
            std::string t = e.value->is_map()                      ? gocompat::kOrderedMapType
                            : e.value->kind == yaml::Kind::kString ? "string"
                            : e.value->kind == yaml::Kind::kInt    ? "int64"
                            : e.value->kind == yaml::Kind::kBool   ? "bool"
                            : e.value->kind == yaml::Kind::kFloat  ? "float64"
                                                                   : "<nil>";
            return ytt_fail(c, "expected map value to be array, but was " + t);
          }
          auto& list = values[e.key.text];
          for (const auto& item : e.value->entries) {
            if (item.value->kind != yaml::Kind::kString) {
              std::string t = item.value->is_map()                     ? gocompat::kOrderedMapType
                              : item.value->is_array()                 ? gocompat::kSliceType
                              : item.value->kind == yaml::Kind::kInt   ? "int64"
                              : item.value->kind == yaml::Kind::kBool  ? "bool"
                              : item.value->kind == yaml::Kind::kFloat ? "float64"
                                                                       : "<nil>";
              return ytt_fail(c, "expected array value to be string, but was " + t);
            }
            list.push_back(item.value->scalar.text);
          }
        }
        std::string out;
        for (const auto& [k, vs] : values) {
          for (const auto& v : vs) {
            if (!out.empty()) out += '&';
            out += escape(k, Enc::kQueryComponent) + "=" + escape(v, Enc::kQueryComponent);
          }
        }
        return sl::Value::from_string(out);
      });
  auto params_decode = string_fn(
      "url.query_params_decode",
      [](const sl::Call& c, std::string_view s) -> sl::Result<sl::Value> {
        std::string q(s);
        std::replace(q.begin(), q.end(), ';', '&');
        std::map<std::string, std::vector<std::string>> values;
        std::string first_error;
        size_t start = 0;
        while (start <= q.size() && !q.empty()) {
          size_t amp = q.find('&', start);
          std::string key =
              q.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
          start = amp == std::string::npos ? q.size() + 1 : amp + 1;
          if (key.empty()) continue;
          size_t eq = key.find('=');
          std::string k, v, err;
          if (!unescape(std::string_view(key).substr(0, eq), Enc::kQueryComponent, k, err) ||
              (eq != std::string::npos &&
               !unescape(std::string_view(key).substr(eq + 1), Enc::kQueryComponent, v, err))) {
            if (first_error.empty()) first_error = err;
            continue;
          }
          values[k].push_back(v);
        }
        if (!first_error.empty()) return ytt_fail(c, first_error);
        std::vector<std::pair<sl::Value, sl::Value>> items;
        for (const auto& [k, vs] : values) {
          std::vector<sl::Value> list;
          for (const auto& v : vs) list.push_back(sl::Value::from_string(v));
          items.emplace_back(sl::Value::from_string(k), sl::make_list(std::move(list)));
        }
        auto d = sl::make_dict(std::move(items));
        if (!d.ok()) return d.error();
        return *d;
      });
  auto parse =
      string_fn("url.parse", [](const sl::Call& c, std::string_view s) -> sl::Result<sl::Value> {
        Url u;
        std::string err;
        size_t hash = s.find('#');
        std::string_view before = s.substr(0, hash);
        if (!parse_url(before, u, err))
          return ytt_fail(c, "parse " + gocompat::quote(before) + ": " + err);
        if (hash != std::string_view::npos) {
          std::string_view frag = s.substr(hash + 1);
          if (!unescape(frag, Enc::kFragment, u.fragment, err)) {
            return ytt_fail(c, "parse " + gocompat::quote(s) + ": " + err);
          }
          if (escape(u.fragment, Enc::kFragment) != frag) u.raw_fragment = std::string(frag);
        }
        return url_value(u);
      });
  return sl::make_struct("module", "url",
                         {{"parse", parse},
                          {"path_segment_decode", path_decode},
                          {"path_segment_encode", path_encode},
                          {"query_param_value_decode", value_decode},
                          {"query_param_value_encode", value_encode},
                          {"query_params_decode", params_decode},
                          {"query_params_encode", params_encode}});
}

sl::Value ip_module() {
  auto parse_addr = string_fn("ip.parse_addr",
                              [](const sl::Call& c, std::string_view s) -> sl::Result<sl::Value> {
                                if (formats::check(formats::Format::kIp, s))
                                  return ytt_fail(c, "invalid IP address: " + std::string(s));
                                return ip_addr_value(ip_bytes(s));
                              });
  auto parse_cidr = string_fn(
      "ip.parse_cidr", [](const sl::Call& c, std::string_view s) -> sl::Result<sl::Value> {
        if (formats::check(formats::Format::kCidr, s))
          return ytt_fail(c, "invalid CIDR address: " + std::string(s));
        size_t slash = s.find('/');
        std::string_view addr = s.substr(0, slash);
        Ip ip = ip_bytes(addr);
        bool v4 = addr.find(':') == std::string_view::npos;
        int bits = 0;
        for (char ch : s.substr(slash + 1)) bits = bits * 10 + (ch - '0');
        Ip masked = ip;
        int total = v4 ? bits + 96 : bits;  // the mask over the 16-byte form
        for (int i = 0; i < 16; ++i) {
          int keep = std::clamp(total - 8 * i, 0, 8);
          masked[i] &= static_cast<uint8_t>(0xff00 >> keep);
        }
        if (v4) masked[10] = masked[11] = 0xff;
        return sl::make_tuple({ip_addr_value(ip), ip_net_value(masked, bits, v4)});
      });
  return sl::make_struct("module", "ip", {{"parse_addr", parse_addr}, {"parse_cidr", parse_cidr}});
}

}  // namespace hintkit::ytt
