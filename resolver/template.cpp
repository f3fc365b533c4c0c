// A small Go text/template: the part of it a tazuna.yaml can use (see template.h).
#include "resolver/template.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <variant>

#include "diag/stack.h"
#include "fileio/fileio.h"
#include "gocompat/gocompat.h"
#include "gotmpl/gotmpl.h"
#include "yaml/yaml.h"

namespace hintkit::resolver {
namespace {

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
inline constexpr size_t kMaxRenderedBytes = fileio::kMaxFileBytes;
// Variables alive at once: a tazuna.yaml template declares a handful; each holds a name and
// a value, and a machine-made text of declarations should not cost a gigabyte.
inline constexpr size_t kMaxTemplateVariables = 100000;
// `{{template}}` calls inside one another: Go's maxExecDepth, where it stops with an error. The
// render runs on a big stack (diag::run_with_big_stack) to get as deep.
inline constexpr size_t kMaxTemplateDepth = 100000;

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
      return gocompat::format_float(std::get<double>(v), 'g');
    case 4:
      return str(v);
    default:
      return "{" + data.environment + "}";
  }
}

struct Failure {
  bool unsupported;  // true: a feature hintkit does not implement (exit 2)
  size_t at;
  std::string message;
  bool limit = false;  // a limit of this renderer was reached (HK003)
};

// ---- what the renderer refuses ----------------------------------------------------------

// Go's builtins that take values this renderer has no kind for (maps, slices, functions).
bool refused_function(std::string_view name) {
  static constexpr std::string_view kRefused[] = {"index", "slice", "call"};
  return std::find(std::begin(kRefused), std::end(kRefused), name) != std::end(kRefused);
}

// text/template's HTMLEscapeString: the five characters HTML gives meaning, and NUL.
std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '"':
        out += "&#34;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\0':
        out += "\xEF\xBF\xBD";  // U+FFFD
        break;
      default:
        out += c;
    }
  }
  return out;
}

// text/template's JSEscapeString: quotes, backslash, `<>&=` and control characters escaped;
// a code point past ASCII kept when unicode.IsPrint, else \uXXXX.
std::string js_escape(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const gocompat::Rune r = gocompat::decode_rune(s, i);
      if (gocompat::is_print(r.cp)) {
        out.append(s.substr(i, r.width));
      } else {
        std::string digits;
        for (uint32_t v = r.cp; v != 0 || digits.size() < 4; v >>= 4) digits += kHex[v & 0xF];
        out += "\\u";
        out.append(digits.rbegin(), digits.rend());
      }
      i += r.width;
      continue;
    }
    ++i;
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '"':
        out += "\\\"";
        break;
      case '<':
        out += "\\u003C";
        break;
      case '>':
        out += "\\u003E";
        break;
      case '&':
        out += "\\u0026";
        break;
      case '=':
        out += "\\u003D";
        break;
      default:
        if (c < ' ') {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

// Where the action holding `pos` of `text` opens: an action's output and its refusal are placed
// at its `{{` (gotmpl places a node at its first word).
size_t action_start(std::string_view text, size_t pos) {
  const size_t open = text.rfind("{{", pos);
  return open == std::string_view::npos ? pos : open;
}

// Refuses, before anything runs, what the renderer does not execute, in any tree: `range` and
// the `break`/`continue` inside it (Go's answer depends on its version: from Go 1.22 `range`
// counts up to an integer, which tazuna's Go 1.26 does and a Go 1.19 refuses), the refused
// builtins and complex constants. Go's own parse has already accepted the text.
void refuse_unsupported(const gotmpl::TreeSet& set) {
  // An action is refused at its `{{`.
  auto action = [&set](size_t pos) { return action_start(set.text(), pos); };
  for (const auto& [name, tree] : set.trees) {
    if (!tree.root) continue;
    gotmpl::walk(*tree.root, [&action](const gotmpl::Node& n) {
      switch (n.type) {
        case gotmpl::NodeType::kRange:
          throw Failure{true, action(n.pos), "the text/template action `range`"};
        case gotmpl::NodeType::kBreak:
        case gotmpl::NodeType::kContinue:
          throw Failure{true, action(n.pos), "the text/template actions `break` and `continue`"};
        case gotmpl::NodeType::kIdentifier: {
          const auto& id = static_cast<const gotmpl::IdentifierNode&>(n);
          if (refused_function(id.ident)) {
            throw Failure{true, n.pos,
                          "the text/template function `" + std::string(id.ident) + "`"};
          }
          break;
        }
        case gotmpl::NodeType::kNumber:
          if (static_cast<const gotmpl::NumberNode&>(n).is_complex) {
            throw Failure{true, n.pos, "complex constants"};
          }
          break;
        default:
          break;
      }
      return true;
    });
  }
}

// ---- execution ------------------------------------------------------------------------

// Go's stack of variables: declarations push, a scope's end drops what it declared, and a name
// means its innermost declaration. Each name keeps the stack places of its declarations, so a
// use or an assignment finds the innermost in O(1) however many are declared. A `{{template}}`
// call sees none of its caller's: the variables below `base` are hidden until it returns.
class Variables {
 public:
  size_t size() const { return slots_.size(); }
  size_t base() const { return base_; }
  size_t calls() const { return calls_; }  // `{{template}}` calls running

  // False when kMaxTemplateVariables declared ones are alive already.
  [[nodiscard]] bool push(const std::string& name, Value v) {
    if (slots_.size() - calls_ >= kMaxTemplateVariables) return false;
    places_[name].push_back(slots_.size());
    slots_.push_back({name, std::move(v)});
    return true;
  }

  // A `{{template}}` call's `$`, hidden from the caller's declarations below `base`: one a
  // call, so as many as kMaxTemplateDepth, which the limit on declarations leaves out.
  void enter_call(Value dot) {
    base_ = slots_.size();
    places_["$"].push_back(slots_.size());
    slots_.push_back({"$", std::move(dot)});
    ++calls_;
  }
  void leave_call(size_t caller_size, size_t caller_base) {
    truncate(caller_size);
    base_ = caller_base;
    --calls_;
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

  // The innermost declaration of `name` in sight, or nullptr.
  Value* find(const std::string& name) {
    auto it = places_.find(name);
    if (it == places_.end() || it->second.back() < base_) return nullptr;
    return &slots_[it->second.back()].second;
  }

 private:
  size_t base_ = 0;
  size_t calls_ = 0;  // the `$` of the calls running
  std::vector<std::pair<std::string, Value>> slots_;
  std::unordered_map<std::string, std::vector<size_t>> places_;
};

class Executor {
 public:
  Executor(const gotmpl::TreeSet& set, const TemplateData& data, Rendered& out)
      : set_(set), src_(set.text()), data_(data), out_(out) {}

  void run() {
    (void)vars_.push("$", DataTag{});
    walk_list(set_.trees.at(set_.main).root);
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

  // Go's fmt of one operand for %v, %s or %d (printArg): %s prints a string and %d an int as
  // they are; the data is a struct, printed field by field with the verb; any other operand is
  // the verb's complaint, "%!s(int=1)", or "%!s(<nil>)" for nil.
  void append_verb(std::string& s, char verb, const Value& a, const std::string& name, size_t at) {
    if (verb == 'v' || (verb == 's' && a.index() == 4) || (verb == 'd' && a.index() == 2)) {
      return append_printed(s, a, name, at);
    }
    if (a.index() == 5) {
      s += '{';
      append_verb(s, verb, make_string(data_.environment), name, at);
      s += '}';
      return;
    }
    s += "%!";
    s += verb;
    s += '(';
    if (a.index() == 0) {
      s += "<nil>";
    } else {
      s += type_name(a) + "=";
      append_printed(s, a, name, at);
    }
    s += ')';
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

  // Go's state.walk over one list: variables declared in it live until the list's `if` or
  // `with` ends (the main list: until the end).
  void walk_list(const gotmpl::ListNode* list) {
    if (!list) return;
    for (const gotmpl::Node* n : list->nodes) walk(*n);
  }

  void walk(const gotmpl::Node& n) {
    switch (n.type) {
      case gotmpl::NodeType::kText: {
        const auto& t = static_cast<const gotmpl::TextNode&>(n);
        emit(t.text, n.pos, true);
        return;
      }
      case gotmpl::NodeType::kAction: {
        const auto& a = static_cast<const gotmpl::ActionNode&>(n);
        Value v = pipeline(*a.pipe);
        if (a.pipe->decl.empty()) {
          emit(v.index() == 0 ? "<no value>" : print_value(v, data_), action_start(src_, n.pos),
               false);
        }
        return;
      }
      case gotmpl::NodeType::kIf:
      case gotmpl::NodeType::kWith: {
        const auto& b = static_cast<const gotmpl::BranchNode&>(n);
        const size_t scope = vars_.size();
        Value v = pipeline(*b.pipe);
        const bool yes = truth(v, data_);
        const Value saved = dot_;
        if (yes && n.type == gotmpl::NodeType::kWith) dot_ = v;  // {{with}} moves the dot
        walk_list(yes ? b.list : b.else_list);
        dot_ = saved;
        vars_.truncate(scope);
        return;
      }
      case gotmpl::NodeType::kTemplate:
        return call_template(static_cast<const gotmpl::TemplateNode&>(n));
      case gotmpl::NodeType::kComment:
        return;
      default:  // refused before the run (refuse_unsupported)
        throw Failure{true, n.pos, "the text/template node " + std::string(to_string(n.type))};
    }
  }

  // Go's walkTemplate: the named tree (a `define` or `block` of the text) runs with the
  // pipeline's value as its dot (nil without one) and `$` as its only variable; variables the
  // pipeline declares stay the caller's.
  void call_template(const gotmpl::TemplateNode& t) {
    auto tree = set_.trees.find(t.name);
    if (tree == set_.trees.end())
      fail(t.pos, "template " + gocompat::quote(t.name) + " not defined");
    if (vars_.calls() == kMaxTemplateDepth) {
      fail(t.pos, "exceeded maximum template depth (" + std::to_string(kMaxTemplateDepth) + ")");
    }
    if (diag::stack_exhausted()) {  // no big stack could be had
      throw Failure{true, action_start(src_, t.pos),
                    "`template` calls nested deeper than this process's stack holds"};
    }
    Value dot = t.pipe ? pipeline(*t.pipe) : Value{};
    const size_t scope = vars_.size(), caller_base = vars_.base();
    const Value caller_dot = std::exchange(dot_, dot);
    vars_.enter_call(std::move(dot));
    walk_list(tree->second.root);
    vars_.leave_call(scope, caller_base);
    dot_ = caller_dot;
  }

  Value pipeline(const gotmpl::PipeNode& p) {
    Value v;
    bool have = false;
    for (const gotmpl::CommandNode* c : p.cmds) {
      v = command(*c, have ? &v : nullptr);
      have = true;
    }
    for (const gotmpl::VariableNode* var : p.decl) {
      const std::string name(var->ident[0]);
      if (p.is_assign) {
        Value* slot = vars_.find(name);
        if (!slot) fail(p.pos, "undefined variable: " + name);
        *slot = v;
      } else if (!vars_.push(name, v)) {
        over_limit(p.pos, "more than " + std::to_string(kMaxTemplateVariables) +
                              " variables are alive at once");
      }
    }
    return v;
  }

  template <class Names>
  Value field(Value base, const Names& fields, size_t first, size_t at) {
    for (size_t i = first; i < fields.size(); ++i) {
      const std::string f(fields[i]);
      if (base.index() == 5 && f == "Environment") {
        base = make_string(data_.environment);
        continue;
      }
      if (base.index() == 0) fail(at, "nil pointer evaluating interface {}." + f);
      fail(at, "can't evaluate field " + f + " in type " + type_name(base));
    }
    return base;
  }

  // Go's idealConstant: a literal with a '.', an exponent or a 'p' (not a hex integer) is a
  // float64, any other an int.
  Value number(const gotmpl::NumberNode& n) {
    const std::string_view t = n.text;
    const bool hex_int = (t.starts_with("0x") || t.starts_with("0X")) &&
                         t.find_first_of("pP") == std::string_view::npos;
    if (n.is_float && !hex_int && !t.starts_with("'") &&
        t.find_first_of(".eEpP") != std::string_view::npos) {
      return n.float64;
    }
    if (n.is_int) return n.int64;
    fail(n.pos, std::string(t) + " overflows int");
  }

  // A command's argument (or its only word, when it is no function).
  Value operand(const gotmpl::Node& o) {
    switch (o.type) {
      case gotmpl::NodeType::kDot:
        return dot_;
      case gotmpl::NodeType::kField: {
        const auto& f = static_cast<const gotmpl::FieldNode&>(o);
        return field(dot_, f.ident, 0, o.pos);
      }
      case gotmpl::NodeType::kVariable: {
        const auto& v = static_cast<const gotmpl::VariableNode&>(o);
        const std::string name(v.ident[0]);
        const Value* value = vars_.find(name);
        if (!value) fail(o.pos, "undefined variable \"" + name + "\"");
        return field(*value, v.ident, 1, o.pos);
      }
      case gotmpl::NodeType::kChain: {
        const auto& c = static_cast<const gotmpl::ChainNode&>(o);
        return field(operand(*c.node), c.field, 0, o.pos);
      }
      case gotmpl::NodeType::kPipe:
        return pipeline(static_cast<const gotmpl::PipeNode&>(o));
      case gotmpl::NodeType::kBool:
        return static_cast<const gotmpl::BoolNode&>(o).value;
      case gotmpl::NodeType::kNil:
        return std::monostate{};
      case gotmpl::NodeType::kNumber:
        return number(static_cast<const gotmpl::NumberNode&>(o));
      case gotmpl::NodeType::kString:
        return make_string(std::string(static_cast<const gotmpl::StringNode&>(o).text));
      case gotmpl::NodeType::kIdentifier:
        return call(std::string(static_cast<const gotmpl::IdentifierNode&>(o).ident), {}, o.pos);
      default:
        fail(o.pos, "can't evaluate command");
    }
  }

  Value command(const gotmpl::CommandNode& c, const Value* piped) {
    const gotmpl::Node& head = *c.args[0];
    if (head.type == gotmpl::NodeType::kNil) fail(head.pos, "nil is not a command");
    if (head.type != gotmpl::NodeType::kIdentifier) {
      if (c.args.size() > 1 || piped) {
        fail(head.pos, "can't give argument to non-function " +
                           std::string(head.type == gotmpl::NodeType::kDot ? "." : "operand"));
      }
      return operand(head);
    }
    const std::string name(static_cast<const gotmpl::IdentifierNode&>(head).ident);
    if ((name == "and" || name == "or") && c.args.size() > 1) {
      // Go stops at the first operand that decides: later ones are not evaluated at all.
      const bool want = name == "or";
      Value v;
      for (size_t i = 1; i < c.args.size(); ++i) {
        v = operand(*c.args[i]);
        if (truth(v, data_) == want) return v;
      }
      if (piped) return *piped;
      return v;
    }
    std::vector<Value> args;
    for (size_t i = 1; i < c.args.size(); ++i) args.push_back(operand(*c.args[i]));
    if (piped) args.push_back(*piped);
    return call(name, args, head.pos);
  }

  // Go's basicKind: 1 bool, 2 int, 3 float64, 4 string; 0 for nil and the data (a struct),
  // which only `eq` compares (by identity: nil equals only nil).
  static int basic_kind(const Value& v) {
    switch (v.index()) {
      case 1:
      case 2:
      case 3:
      case 4:
        return static_cast<int>(v.index());
      default:
        return 0;
    }
  }

  // Go's eq of two values (funcs.go): values of different kinds are an error unless one is nil.
  bool equal(const Value& a, const Value& b, size_t at) {
    const int ka = basic_kind(a), kb = basic_kind(b);
    if (ka != kb) {
      if (a.index() != 0 && b.index() != 0) fail(at, "incompatible types for comparison");
      return false;
    }
    switch (ka) {
      case 1:
        return std::get<bool>(a) == std::get<bool>(b);
      case 2:
        return std::get<int64_t>(a) == std::get<int64_t>(b);
      case 3:
        return std::get<double>(a) == std::get<double>(b);
      case 4:
        work(std::min(str(a).size(), str(b).size()), at);
        return str(a) == str(b);
      default:  // nil or the data: equal when both are nil or both the data
        return a.index() == b.index();
    }
  }

  // Go's lt (funcs.go): only numbers of one kind and strings are ordered.
  bool less(const Value& a, const Value& b, size_t at) {
    const int ka = basic_kind(a), kb = basic_kind(b);
    if (ka == 0 || kb == 0) fail(at, "invalid type for comparison");
    if (ka != kb) fail(at, "incompatible types for comparison");
    switch (ka) {
      case 2:
        return std::get<int64_t>(a) < std::get<int64_t>(b);
      case 3:
        return std::get<double>(a) < std::get<double>(b);
      case 4:
        work(std::min(str(a).size(), str(b).size()), at);
        return str(a) < str(b);
      default:  // bool
        fail(at, "invalid type for comparison");
    }
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
      if (args.empty()) fail(at, "wrong number of args for eq: want at least 1 got 0");
      if (args.size() < 2) fail(at, "missing argument for comparison");
      for (size_t i = 1; i < args.size(); ++i) {
        if (equal(args[0], args[i], at)) return true;
      }
      return false;
    }
    if (name == "ne" || name == "lt" || name == "le" || name == "gt" || name == "ge") {
      want(2);
      if (name == "ne") return !equal(args[0], args[1], at);
      const bool lt = less(args[0], args[1], at);
      if (name == "lt") return lt;
      if (name == "ge") return !lt;
      const bool le = lt || equal(args[0], args[1], at);
      return name == "le" ? le : !le;
    }
    if (name == "len") {
      want(1);
      if (args[0].index() != 4) fail(at, "len of type " + type_name(args[0]));
      return static_cast<int64_t>(str(args[0]).size());
    }
    if (name == "print" || name == "println" || name == "html" || name == "js" ||
        name == "urlquery") {
      // fmt.Sprint. html, js and urlquery escape what it prints of their arguments (Go's
      // evalArgs), where nil is first the string "<no value>".
      const bool escapes = name == "html" || name == "js" || name == "urlquery";
      std::vector<Value> printed = args;
      for (Value& a : printed) {
        if (escapes && a.index() == 0) a = make_string("<no value>");
      }
      std::string s;
      for (size_t i = 0; i < printed.size(); ++i) {
        const bool space = name == "println"
                               ? i > 0
                               : i > 0 && printed[i].index() != 4 && printed[i - 1].index() != 4;
        if (space) s += ' ';
        append_printed(s, printed[i], name, at);
      }
      if (name == "println") s += '\n';
      if (name == "html") s = html_escape(s);
      if (name == "js") s = js_escape(s);
      if (name == "urlquery") s = gocompat::url_escape(s, gocompat::UrlEncoding::kQueryComponent);
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
      } else if (verb == 'q') {
        throw Failure{true, at, "%q of a value that is not a string"};
      } else {
        append_verb(s, verb, a, name, at);
      }
    }
    if (next < args.size()) {
      s += "%!(EXTRA ";
      for (size_t i = next; i < args.size(); ++i) {
        if (i > next) s += ", ";
        if (args[i].index() == 0) {
          s += "<nil>";
          continue;
        }
        s += type_name(args[i]) + "=";
        append_printed(s, args[i], name, at);
      }
      s += ")";
    }
    return made(std::move(s), name, at);
  }

  const gotmpl::TreeSet& set_;
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
    gotmpl::Options options;
    options.is_function = gotmpl::is_builtin;  // tazuna adds no functions
    auto parsed = gotmpl::parse(source, file, options);
    if (!parsed.ok()) {
      const gotmpl::ParseError& e = parsed.error();
      if (e.nesting_limit) {
        throw Failure{true, std::min(e.offset, source.size()),
                      "nesting deeper than " + std::to_string(gotmpl::kMaxNesting) + " levels"};
      }
      const diag::Position at = position_of(r.src_lines, std::min(e.offset, source.size()));
      const diag::Span span{std::string(file), at, at};
      diags.error("HK316", span, "Go template: " + e.message);
      return r;
    }
    refuse_unsupported(*parsed);
    diag::run_with_big_stack([&] { Executor(*parsed, data, r).run(); });
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
