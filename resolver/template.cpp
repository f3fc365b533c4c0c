// A small Go text/template: the part of it a tazuna.yaml can use (see template.h).
#include "resolver/template.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <unordered_map>
#include <variant>

#include "gocompat/gocompat.h"
#include "yaml/yaml.h"

namespace hintkit::resolver {
namespace {

using yaml::go_format_float64;

// ---- limits ---------------------------------------------------------------------------

// A string a template makes (print, println, printf): a tazuna.yaml value is a name, a host,
// a URL or a short config; even a certificate bundle is a few hundred KB. Doubling a string
// 40 times asked for a terabyte.
inline constexpr size_t kMaxTemplateStringBytes = 1u << 20;  // 1 MiB
// The bytes the functions of one render make or compare, together: each string made is kept
// (variables hold it) and each comparison reads both sides, so this bounds the memory and the
// time a render can spend whatever the template repeats. 64 times the largest string.
inline constexpr size_t kMaxTemplateWorkBytes = 64u << 20;  // 64 MiB
// The rendered text is YAML for the loader, which takes no more from any file.
inline constexpr size_t kMaxRenderedBytes = yaml::kMaxFileBytes;
// Variables alive at once: a tazuna.yaml template declares a handful; each holds a name and
// a value, and a machine-made text of declarations should not cost a gigabyte.
inline constexpr size_t kMaxTemplateVariables = 100000;

// ---- values --------------------------------------------------------------------------

struct DataTag {};  // the dot: tazuna's tmpl.Data
// Strings are shared, as Go's are: a variable used a million times is not copied each time.
struct String {
  std::shared_ptr<const std::string> p;
  const std::string& str() const { return *p; }
};
String make_string(std::string s) { return {std::make_shared<const std::string>(std::move(s))}; }
using Value = std::variant<std::monostate, bool, int64_t, double, String, DataTag>;

const std::string& str(const Value& v) { return std::get<String>(v).str(); }

std::string type_name(const Value& v) {
  switch (v.index()) {
    case 0:
      return "nil";
    case 1:
      return "bool";
    case 2:
      return "int";
    case 3:
      return "float64";
    case 4:
      return "string";
    default:
      return "tmpl.Data";
  }
}

bool truth(const Value& v, const TemplateData&) {
  switch (v.index()) {
    case 0:
      return false;
    case 1:
      return std::get<bool>(v);
    case 2:
      return std::get<int64_t>(v) != 0;
    case 3:
      return std::get<double>(v) != 0;
    case 4:
      return !str(v).empty();
    default:
      return true;
  }
}

std::string print_value(const Value& v, const TemplateData& data) {
  switch (v.index()) {
    case 0:
      return "<nil>";
    case 1:
      return std::get<bool>(v) ? "true" : "false";
    case 2:
      return std::to_string(std::get<int64_t>(v));
    case 3:
      return go_format_float64(std::get<double>(v));
    case 4:
      return str(v);
    default:
      return "{" + data.environment + "}";
  }
}

// ---- syntax tree ---------------------------------------------------------------------

struct Pipeline;
struct Operand {
  enum class Kind { kDot, kField, kVariable, kLiteral, kFunction, kParen } kind = Kind::kDot;
  std::string name;                 // variable ("$x") or function name
  std::vector<std::string> fields;  // .A.B after the dot, a variable or a parenthesis
  Value literal;
  std::shared_ptr<Pipeline> paren;
  size_t at = 0;
};
struct Command {
  std::vector<Operand> args;
  size_t at = 0;
};
struct Pipeline {
  std::string decl;     // "$x" or ""
  bool assign = false;  // `=` rather than `:=`
  std::vector<Command> commands;
  size_t at = 0;
};
struct Node;
using List = std::vector<Node>;
struct Node {
  enum class Kind { kText, kAction, kIf, kWith } kind = Kind::kText;
  size_t begin = 0, end = 0;  // kText: source range
  size_t at = 0;              // the action's `{{`
  Pipeline pipe;
  List then, otherwise;
};

struct Failure {
  bool unsupported;  // true: a feature hintkit does not implement (exit 2)
  size_t at;
  std::string message;
  bool limit = false;  // a limit of this renderer was reached (HK003)
};

// ---- lexing and parsing -----------------------------------------------------------------

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Nested {{if}}/{{with}} and parentheses; deeper is machine-made or hostile, and the parser
// and executor recurse once per level.
inline constexpr int kMaxTemplateDepth = 256;

class Parser {
 public:
  explicit Parser(std::string_view src) : src_(src) {}

  // The whole template; throws Failure.
  List parse() {
    List top;
    std::string_view stop = parse_list(top);
    if (!stop.empty()) fail(last_action_, "unexpected {{" + std::string(stop) + "}}");
    return top;
  }

 private:
  [[noreturn]] void fail(size_t at, std::string msg) { throw Failure{false, at, std::move(msg)}; }
  [[noreturn]] void unsupported(size_t at, std::string msg) {
    throw Failure{true, at, std::move(msg)};
  }

  // Parses nodes until EOF or a control keyword ({{else}}, {{end}}, {{else if ...}}), returned.
  std::string_view parse_list(List& out) {
    while (pos_ < src_.size()) {
      size_t open = src_.find("{{", pos_);
      size_t text_end = open == std::string_view::npos ? src_.size() : open;
      size_t action = open;
      size_t inner = open == std::string_view::npos ? 0 : open + 2;
      bool left_trim = false;
      if (open != std::string_view::npos && inner + 1 < src_.size() && src_[inner] == '-' &&
          is_space(src_[inner + 1])) {
        left_trim = true;
        inner += 2;
      }
      size_t text_stop = text_end;
      if (left_trim) {
        while (text_stop > pos_ && is_space(src_[text_stop - 1])) --text_stop;
      }
      if (trim_next_) {
        while (pos_ < text_stop && is_space(src_[pos_])) ++pos_;
        trim_next_ = false;
      }
      if (text_stop > pos_) {
        Node t;
        t.begin = pos_;
        t.end = text_stop;
        out.push_back(std::move(t));
      }
      if (open == std::string_view::npos) {
        pos_ = src_.size();
        break;
      }
      last_action_ = action;
      pos_ = inner;
      skip_spaces();
      // Comments: {{/* ... */}}
      if (src_.substr(pos_, 2) == "/*") {
        size_t close = src_.find("*/", pos_ + 2);
        if (close == std::string_view::npos) fail(action, "unclosed comment");
        pos_ = close + 2;
        end_action(action);
        continue;
      }
      std::string_view word = peek_word();
      if (word == "if" || word == "with") {
        pos_ += word.size();
        Node n;
        n.kind = word == "if" ? Node::Kind::kIf : Node::Kind::kWith;
        n.at = action;
        parse_control(n, word);
        out.push_back(std::move(n));
        continue;
      }
      if (word == "else" || word == "end") {
        pos_ += word.size();
        if (word == "end") end_action(action);
        return word;  // `else` leaves the rest of the action to the caller
      }
      if (word == "range" || word == "define" || word == "template" || word == "block" ||
          word == "break" || word == "continue") {
        unsupported(action, "the text/template action `" + std::string(word) + "`");
      }
      Node a;
      a.kind = Node::Kind::kAction;
      a.at = action;
      a.pipe = parse_pipeline(action);
      end_action(action);
      out.push_back(std::move(a));
    }
    return {};
  }

  // Counts one level of nesting for as long as it lives.
  struct Level {
    explicit Level(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxTemplateDepth) {
        throw Failure{true, p_.pos_,
                      "nesting deeper than " + std::to_string(kMaxTemplateDepth) + " levels"};
      }
    }
    ~Level() { --p_.depth_; }
    Parser& p_;
  };

  void parse_control(Node& n, std::string_view word) {
    Level level(*this);
    n.pipe = parse_pipeline(n.at);
    end_action(n.at);
    std::string_view stop = parse_list(n.then);
    if (stop.empty()) fail(n.at, "unexpected EOF: {{" + std::string(word) + "}} has no {{end}}");
    if (stop == "else") {
      skip_spaces();
      std::string_view next = peek_word();
      if (next == "if" || next == "with") {  // {{else if ...}} chains into a nested node
        pos_ += next.size();
        Node inner;
        inner.kind = next == "if" ? Node::Kind::kIf : Node::Kind::kWith;
        inner.at = last_action_;
        parse_control(inner, next);
        n.otherwise.push_back(std::move(inner));
        return;
      }
      end_action(last_action_);
      stop = parse_list(n.otherwise);
      if (stop != "end") fail(n.at, "unexpected EOF: {{" + std::string(word) + "}} has no {{end}}");
    }
  }

  void skip_spaces() {
    while (pos_ < src_.size() && is_space(src_[pos_])) ++pos_;
  }

  std::string_view peek_word() const {
    size_t e = pos_;
    while (e < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[e])) || src_[e] == '_'))
      ++e;
    return src_.substr(pos_, e - pos_);
  }

  bool at_close() {
    skip_spaces();
    if (src_.substr(pos_, 2) == "}}") return true;
    // " -}}": the dash must follow a space
    return pos_ > 0 && is_space(src_[pos_ - 1]) && src_.substr(pos_, 3) == "-}}";
  }

  void end_action(size_t action) {
    skip_spaces();
    if (pos_ > 0 && is_space(src_[pos_ - 1]) && src_.substr(pos_, 3) == "-}}") {
      trim_next_ = true;
      pos_ += 3;
      return;
    }
    if (src_.substr(pos_, 2) == "}}") {
      pos_ += 2;
      return;
    }
    if (pos_ >= src_.size()) fail(action, "unclosed action");
    fail(pos_, "unexpected " + quote_char(src_[pos_]) + " in action");
  }

  static std::string quote_char(char c) { return std::string("\"") + c + "\""; }

  Pipeline parse_pipeline(size_t action) {
    Pipeline p;
    p.at = action;
    skip_spaces();
    // Declaration: $x := ... or $x = ...
    if (pos_ < src_.size() && src_[pos_] == '$') {
      size_t save = pos_;
      std::string var = read_variable();
      skip_spaces();
      if (src_.substr(pos_, 2) == ":=") {
        p.decl = var;
        pos_ += 2;
      } else if (pos_ < src_.size() && src_[pos_] == '=' && src_.substr(pos_, 2) != "==") {
        p.decl = var;
        p.assign = true;
        pos_ += 1;
      } else {
        pos_ = save;
      }
    }
    while (true) {
      Command c;
      c.at = pos_;
      while (!at_close() && pos_ < src_.size() && src_[pos_] != '|' && src_[pos_] != ')') {
        c.args.push_back(parse_operand());
      }
      if (c.args.empty()) fail(pos_ < src_.size() ? pos_ : action, "missing value for command");
      p.commands.push_back(std::move(c));
      skip_spaces();
      if (pos_ < src_.size() && src_[pos_] == '|') {
        ++pos_;
        continue;
      }
      break;
    }
    return p;
  }

  std::string read_variable() {
    size_t b = pos_++;
    while (pos_ < src_.size() &&
           (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_'))
      ++pos_;
    return std::string(src_.substr(b, pos_ - b));
  }

  void read_fields(std::vector<std::string>& fields) {
    while (pos_ + 1 < src_.size() && src_[pos_] == '.' &&
           (std::isalpha(static_cast<unsigned char>(src_[pos_ + 1])) || src_[pos_ + 1] == '_')) {
      ++pos_;
      size_t b = pos_;
      while (pos_ < src_.size() &&
             (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_'))
        ++pos_;
      fields.emplace_back(src_.substr(b, pos_ - b));
    }
  }

  Operand parse_operand() {
    skip_spaces();
    Operand o;
    o.at = pos_;
    if (pos_ >= src_.size()) fail(o.at, "unclosed action");
    const char c = src_[pos_];
    if (c == '.') {
      if (pos_ + 1 < src_.size() &&
          (std::isalpha(static_cast<unsigned char>(src_[pos_ + 1])) || src_[pos_ + 1] == '_')) {
        o.kind = Operand::Kind::kField;
        read_fields(o.fields);
      } else {
        o.kind = Operand::Kind::kDot;
        ++pos_;
      }
      return o;
    }
    if (c == '$') {
      o.kind = Operand::Kind::kVariable;
      o.name = read_variable();
      read_fields(o.fields);
      return o;
    }
    if (c == '(') {
      Level level(*this);
      ++pos_;
      o.kind = Operand::Kind::kParen;
      o.paren = std::make_shared<Pipeline>(parse_pipeline(o.at));
      skip_spaces();
      if (pos_ >= src_.size() || src_[pos_] != ')') fail(o.at, "unclosed left paren");
      ++pos_;
      read_fields(o.fields);
      return o;
    }
    if (c == '"' || c == '`') {
      o.kind = Operand::Kind::kLiteral;
      o.literal = make_string(read_string());
      return o;
    }
    if (c == '\'') unsupported(o.at, "character constants");
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        ((c == '-' || c == '+') && pos_ + 1 < src_.size() &&
         std::isdigit(static_cast<unsigned char>(src_[pos_ + 1])))) {
      o.kind = Operand::Kind::kLiteral;
      o.literal = read_number();
      return o;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::string word(peek_word());
      pos_ += word.size();
      if (word == "true" || word == "false") {
        o.kind = Operand::Kind::kLiteral;
        o.literal = word == "true";
      } else if (word == "nil") {
        o.kind = Operand::Kind::kLiteral;
        o.literal = std::monostate{};
      } else {
        o.kind = Operand::Kind::kFunction;
        o.name = word;
        static const char* kSupported[] = {"and", "or", "not", "eq",    "ne",      "lt",    "le",
                                           "gt",  "ge", "len", "print", "println", "printf"};
        static const char* kGoOnly[] = {"index", "slice", "html", "js", "urlquery", "call"};
        bool known = false;
        for (const char* f : kSupported) known = known || word == f;
        for (const char* f : kGoOnly) {
          if (word == f) unsupported(o.at, "the text/template function `" + word + "`");
        }
        if (!known) fail(o.at, "function " + gocompat::quote(word) + " not defined");
      }
      return o;
    }
    fail(o.at, "unexpected " + quote_char(c) + " in operand");
  }

  std::string read_string() {
    const size_t b = pos_;
    const char q = src_[pos_++];
    std::string out;
    while (pos_ < src_.size() && src_[pos_] != q) {
      char c = src_[pos_++];
      if (q == '"' && c == '\n') fail(b, "unterminated quoted string");
      if (q == '"' && c == '\\') {
        if (pos_ >= src_.size()) break;
        char e = src_[pos_++];
        switch (e) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case 'r':
            out += '\r';
            break;
          case '\\':
          case '"':
            out += e;
            break;
          default:
            unsupported(b, "the string escape \\" + std::string(1, e));
        }
        continue;
      }
      out += c;
    }
    if (pos_ >= src_.size()) fail(b, "unterminated quoted string");
    ++pos_;
    return out;
  }

  Value read_number() {
    const size_t b = pos_;
    while (pos_ < src_.size() && !is_space(src_[pos_]) && src_[pos_] != ')' && src_[pos_] != '|' &&
           src_[pos_] != '}')
      ++pos_;
    std::string text(src_.substr(b, pos_ - b));
    std::string plain;
    for (char c : text)
      if (c != '_') plain += c;
    bool neg = !plain.empty() && plain[0] == '-';
    std::string digits = (plain[0] == '-' || plain[0] == '+') ? plain.substr(1) : plain;
    int base = 10;
    std::string body = digits;
    if (digits.size() > 1 && digits[0] == '0') {
      char p = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[1])));
      if (p == 'x')
        base = 16, body = digits.substr(2);
      else if (p == 'o')
        base = 8, body = digits.substr(2);
      else if (p == 'b')
        base = 2, body = digits.substr(2);
      else if (std::isdigit(static_cast<unsigned char>(p)))
        base = 8, body = digits.substr(1);
    }
    int64_t iv = 0;
    auto r = std::from_chars(body.data(), body.data() + body.size(), iv, base);
    if (!body.empty() && r.ec == std::errc() && r.ptr == body.data() + body.size())
      return neg ? -iv : iv;
    double dv = 0;
    auto rf = std::from_chars(digits.data(), digits.data() + digits.size(), dv);
    if (base == 10 && rf.ec == std::errc() && rf.ptr == digits.data() + digits.size())
      return neg ? -dv : dv;
    fail(b, "bad number syntax: " + gocompat::quote(text));
  }

  std::string_view src_;
  size_t pos_ = 0;
  size_t last_action_ = 0;
  bool trim_next_ = false;
  int depth_ = 0;
};

// ---- execution ------------------------------------------------------------------------

// Go's stack of variables: declarations push, a scope's end drops what it declared, and a name
// means its innermost declaration. Each name keeps the stack places of its declarations, so a
// use or an assignment finds the innermost in O(1) however many are declared.
class Variables {
 public:
  size_t size() const { return slots_.size(); }

  // False when kMaxTemplateVariables are alive already.
  [[nodiscard]] bool push(const std::string& name, Value v) {
    if (slots_.size() >= kMaxTemplateVariables) return false;
    places_[name].push_back(slots_.size());
    slots_.push_back({name, std::move(v)});
    return true;
  }

  // Drops the variables declared since the stack had `n`.
  void truncate(size_t n) {
    while (slots_.size() > n) {
      auto it = places_.find(slots_.back().first);
      it->second.pop_back();
      if (it->second.empty()) places_.erase(it);
      slots_.pop_back();
    }
  }

  // The innermost declaration of `name`, or nullptr.
  Value* find(const std::string& name) {
    auto it = places_.find(name);
    return it == places_.end() ? nullptr : &slots_[it->second.back()].second;
  }

 private:
  std::vector<std::pair<std::string, Value>> slots_;
  std::unordered_map<std::string, std::vector<size_t>> places_;
};

class Executor {
 public:
  Executor(std::string_view src, const TemplateData& data, Rendered& out)
      : src_(src), data_(data), out_(out) {}

  void run(const List& list) {
    (void)vars_.push("$", DataTag{});
    walk(list);
  }

 private:
  [[noreturn]] void fail(size_t at, std::string msg) { throw Failure{false, at, std::move(msg)}; }
  [[noreturn]] void over_limit(size_t at, std::string msg) {
    throw Failure{false, at, std::move(msg), true};
  }

  void emit(std::string_view text, size_t src, bool literal) {
    if (text.empty()) return;
    if (text.size() > kMaxRenderedBytes - out_.text.size()) {
      over_limit(src, "the rendered text is over the limit of " +
                          std::to_string(kMaxRenderedBytes) +
                          " bytes (the most YAML read from a file)");
    }
    out_.segments.push_back({out_.text.size(), src, literal});
    out_.text += text;
  }

  // Charges `bytes` of work (a string made or compared) to the render's budget.
  void work(size_t bytes, size_t at) {
    if (bytes > kMaxTemplateWorkBytes - work_) {
      over_limit(at, "the functions of this template make or compare more than " +
                         std::to_string(kMaxTemplateWorkBytes) + " bytes of strings");
    }
    work_ += bytes;
  }

  // Appends what print shows of `v`, stopping at the limit of a made string.
  void append_printed(std::string& s, const Value& v, const std::string& name, size_t at) {
    if (v.index() == 4) {
      s += str(v);
    } else {
      s += print_value(v, data_);
    }
    check_made(s, name, at);
  }

  // A string made by `name`: within kMaxTemplateStringBytes, charged as work.
  Value made(std::string s, const std::string& name, size_t at) {
    check_made(s, name, at);
    work(s.size(), at);
    return make_string(std::move(s));
  }
  void check_made(const std::string& s, const std::string& name, size_t at) {
    if (s.size() > kMaxTemplateStringBytes) {
      over_limit(at, name + " makes a string over the limit of " +
                         std::to_string(kMaxTemplateStringBytes) + " bytes");
    }
  }

  void walk(const List& list) {
    const size_t scope = vars_.size();
    for (const Node& n : list) {
      switch (n.kind) {
        case Node::Kind::kText:
          emit(src_.substr(n.begin, n.end - n.begin), n.begin, true);
          break;
        case Node::Kind::kAction: {
          Value v = pipeline(n.pipe);
          if (n.pipe.decl.empty()) {
            emit(v.index() == 0 ? "<no value>" : print_value(v, data_), n.at, false);
          }
          break;
        }
        case Node::Kind::kIf:
        case Node::Kind::kWith: {
          const size_t inner = vars_.size();
          Value v = pipeline(n.pipe);
          const bool yes = truth(v, data_);
          const Value saved = dot_;
          if (yes && n.kind == Node::Kind::kWith) dot_ = v;  // {{with}} moves the dot
          walk(yes ? n.then : n.otherwise);
          dot_ = saved;
          vars_.truncate(inner);
          break;
        }
      }
    }
    vars_.truncate(scope);
  }

  Value pipeline(const Pipeline& p) {
    Value v;
    bool have = false;
    for (const Command& c : p.commands) {
      v = command(c, have ? &v : nullptr);
      have = true;
    }
    if (!p.decl.empty()) {
      if (p.assign) {
        Value* slot = vars_.find(p.decl);
        if (!slot) fail(p.at, "undefined variable: " + p.decl);
        *slot = v;
      } else if (!vars_.push(p.decl, v)) {
        over_limit(p.at, "more than " + std::to_string(kMaxTemplateVariables) +
                             " variables are alive at once");
      }
    }
    return v;
  }

  Value field(Value base, const std::vector<std::string>& fields, size_t at) {
    for (const std::string& f : fields) {
      if (base.index() == 5 && f == "Environment") {
        base = make_string(data_.environment);
        continue;
      }
      if (base.index() == 0) fail(at, "nil pointer evaluating interface {}." + f);
      fail(at, "can't evaluate field " + f + " in type " + type_name(base));
    }
    return base;
  }

  Value operand(const Operand& o) {
    switch (o.kind) {
      case Operand::Kind::kDot:
        return dot_;
      case Operand::Kind::kField:
        return field(dot_, o.fields, o.at);
      case Operand::Kind::kVariable: {
        const Value* v = vars_.find(o.name);
        if (!v) fail(o.at, "undefined variable \"" + o.name + "\"");
        return field(*v, o.fields, o.at);
      }
      case Operand::Kind::kLiteral:
        return o.literal;
      case Operand::Kind::kParen:
        return field(pipeline(*o.paren), o.fields, o.at);
      case Operand::Kind::kFunction:
        return call(o.name, {}, o.at);
    }
    return {};
  }

  Value command(const Command& c, const Value* piped) {
    const Operand& head = c.args[0];
    if (head.kind == Operand::Kind::kLiteral && head.literal.index() == 0) {
      fail(head.at, "nil is not a command");
    }
    if (head.kind != Operand::Kind::kFunction) {
      if (c.args.size() > 1 || piped) {
        fail(head.at, "can't give argument to non-function " +
                          std::string(src_.substr(head.at, 1) == "." ? "." : "operand"));
      }
      return operand(head);
    }
    if ((head.name == "and" || head.name == "or") && c.args.size() > 1) {
      // Go stops at the first operand that decides: later ones are not evaluated at all.
      const bool want = head.name == "or";
      Value v;
      for (size_t i = 1; i < c.args.size(); ++i) {
        v = operand(c.args[i]);
        if (truth(v, data_) == want) return v;
      }
      if (piped) return *piped;
      return v;
    }
    std::vector<Value> args;
    for (size_t i = 1; i < c.args.size(); ++i) args.push_back(operand(c.args[i]));
    if (piped) args.push_back(*piped);
    return call(head.name, args, head.at);
  }

  static int compare_kind(const Value& v) {  // 1 bool, 2 number, 4 string, 0 other
    if (v.index() == 1) return 1;
    if (v.index() == 2 || v.index() == 3) return 2;
    if (v.index() == 4) return 4;
    return 0;
  }

  // <0, 0, >0; fails on incomparable kinds as Go does.
  int compare(const Value& a, const Value& b, size_t at, bool ordered) {
    const int ka = compare_kind(a), kb = compare_kind(b);
    if (ka == 0 || kb == 0 || ka != kb) fail(at, "incompatible types for comparison");
    if (ka == 1) {
      if (ordered) fail(at, "invalid type for comparison");
      return std::get<bool>(a) == std::get<bool>(b) ? 0 : 1;
    }
    if (ka == 4) {
      const std::string& x = str(a);
      const std::string& y = str(b);
      work(std::min(x.size(), y.size()), at);
      return x.compare(y) < 0 ? -1 : (x == y ? 0 : 1);
    }
    if (a.index() != b.index()) fail(at, "incompatible types for comparison");
    if (a.index() == 2) {
      auto x = std::get<int64_t>(a), y = std::get<int64_t>(b);
      return x < y ? -1 : (x == y ? 0 : 1);
    }
    auto x = std::get<double>(a), y = std::get<double>(b);
    return x < y ? -1 : (x == y ? 0 : 1);
  }

  Value call(const std::string& name, const std::vector<Value>& args, size_t at) {
    auto want = [&](size_t n) {
      if (args.size() != n) {
        fail(at, "wrong number of args for " + name + ": want " + std::to_string(n) + " got " +
                     std::to_string(args.size()));
      }
    };
    if (name == "and" || name == "or") {
      if (args.empty()) fail(at, "wrong number of args for " + name + ": want at least 1 got 0");
      for (size_t i = 0; i + 1 < args.size(); ++i) {
        if (truth(args[i], data_) == (name == "or")) return args[i];
      }
      return args.back();
    }
    if (name == "not") {
      want(1);
      return !truth(args[0], data_);
    }
    if (name == "eq") {
      if (args.size() < 2) fail(at, "missing argument for comparison");
      for (size_t i = 1; i < args.size(); ++i) {
        if (compare(args[0], args[i], at, false) == 0) return true;
      }
      return false;
    }
    if (name == "ne" || name == "lt" || name == "le" || name == "gt" || name == "ge") {
      want(2);
      const int c = compare(args[0], args[1], at, name != "ne");
      if (name == "ne") return c != 0;
      if (name == "lt") return c < 0;
      if (name == "le") return c <= 0;
      if (name == "gt") return c > 0;
      return c >= 0;
    }
    if (name == "len") {
      want(1);
      if (args[0].index() != 4) fail(at, "len of type " + type_name(args[0]));
      return static_cast<int64_t>(str(args[0]).size());
    }
    if (name == "print" || name == "println") {
      std::string s;
      for (size_t i = 0; i < args.size(); ++i) {
        const bool space =
            name == "println" ? i > 0 : i > 0 && args[i].index() != 4 && args[i - 1].index() != 4;
        if (space) s += ' ';
        append_printed(s, args[i], name, at);
      }
      if (name == "println") s += '\n';
      return made(std::move(s), name, at);
    }
    // printf
    if (args.empty() || args[0].index() != 4) fail(at, "printf needs a format string");
    const std::string& f = str(args[0]);
    std::string s;
    size_t next = 1;
    for (size_t i = 0; i < f.size(); ++i) {
      if (f[i] != '%') {
        s += f[i];
        continue;
      }
      if (++i >= f.size()) {
        s += "%!(NOVERB)";
        break;
      }
      const char verb = f[i];
      if (verb == '%') {
        s += '%';
        continue;
      }
      if (verb != 's' && verb != 'v' && verb != 'd' && verb != 'q') {
        throw Failure{true, at, std::string("the printf verb %") + verb};
      }
      if (next >= args.size()) {
        s += std::string("%!") + verb + "(MISSING)";
        continue;
      }
      const Value& a = args[next++];
      check_made(s, name, at);
      if (verb == 'q' && a.index() == 4) {
        if (str(a).size() > kMaxTemplateStringBytes) check_made(str(a), name, at);
        s += gocompat::quote(str(a));
      } else if (verb == 'd' && a.index() != 2) {
        s += "%!d(" + type_name(a) + "=" + print_value(a, data_) + ")";
      } else if (verb == 'q') {
        throw Failure{true, at, "%q of a value that is not a string"};
      } else {
        append_printed(s, a, name, at);
      }
    }
    if (next < args.size()) {
      s += "%!(EXTRA ";
      for (size_t i = next; i < args.size(); ++i) {
        if (i > next) s += ", ";
        s += type_name(args[i]) + "=";
        append_printed(s, args[i], name, at);
      }
      s += ")";
    }
    return made(std::move(s), name, at);
  }

  std::string_view src_;
  const TemplateData& data_;
  Rendered& out_;
  Variables vars_;
  Value dot_ = DataTag{};
  size_t work_ = 0;  // bytes made or compared so far, against kMaxTemplateWorkBytes
};

std::vector<size_t> line_starts(std::string_view s) {
  std::vector<size_t> out{0};
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n') out.push_back(i + 1);
  }
  return out;
}

diag::Position position_of(const std::vector<size_t>& lines, size_t offset) {
  auto it = std::upper_bound(lines.begin(), lines.end(), offset);
  const size_t line = static_cast<size_t>(it - lines.begin());
  return {static_cast<int>(line), static_cast<int>(offset - lines[line - 1]) + 1};
}

}  // namespace

diag::Position Rendered::source_position(diag::Position p) const {
  if (identity || p.line <= 0 || out_lines.empty()) return p;
  const size_t line = std::min(static_cast<size_t>(p.line), out_lines.size());
  const size_t offset = out_lines[line - 1] + static_cast<size_t>(std::max(p.column, 1) - 1);
  auto it = std::upper_bound(segments.begin(), segments.end(), offset,
                             [](size_t o, const Segment& s) { return o < s.out_begin; });
  if (it == segments.begin()) return position_of(src_lines, 0);
  --it;
  const size_t src = it->literal ? it->src_begin + (offset - it->out_begin) : it->src_begin;
  return position_of(src_lines, src);
}

diag::Result<Rendered> render_template(std::string_view source, std::string_view file,
                                       const TemplateData& data, diag::Diagnostics& diags) {
  Rendered r;
  if (source.find("{{") == std::string_view::npos) {
    r.text = std::string(source);
    return r;
  }
  r.identity = false;
  r.src_lines = line_starts(source);
  try {
    List tree = Parser(source).parse();
    Executor(source, data, r).run(tree);
  } catch (const Failure& f) {
    const diag::Position at = position_of(r.src_lines, f.at);
    const diag::Span span{std::string(file), at, at};
    if (f.limit) {
      diags.error("HK003", span, "Go template: " + f.message);
      return r;
    }
    if (f.unsupported) {
      return diag::Error{std::string(file) + ":" + std::to_string(at.line) + ":" +
                             std::to_string(at.column) + ": " + f.message +
                             " is not supported by hintkit's Go template renderer",
                         span};
    }
    diags.error("HK316", span, "Go template: " + f.message);
    return r;
  }
  r.out_lines = line_starts(r.text);
  return r;
}

}  // namespace hintkit::resolver
