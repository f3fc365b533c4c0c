// The walk: what dot and each variable stand for, through every branch of every tree.
#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "fileio/fileio.h"
#include "gotmpl/gotmpl.h"
#include "tmplcheck/internal.h"
#include "tmplcheck/tmplcheck.h"

namespace hintkit::tmplcheck {
namespace {

using diag::in_quotes;
using gotmpl::Node;
using gotmpl::NodeType;

// What a value of the template stands for, as far as the checker can tell.
enum class Kind {
  kUnknown,  // anything: nothing is checked below it
  kRoot,     // the data: Values, StateValues, Environment (helmfile: Namespace)
  kVars,     // the vars map (.Values, .StateValues, helmfile's .Environment.Values)
  kVar,      // one declared var
  kEnv,      // .Environment
  kString,   // a string that is not a var (.Environment.Name)
};

struct Val {
  Kind kind = Kind::kUnknown;
  const hintfile::Var* var = nullptr;  // kVar
  bool operator==(const Val&) const = default;
};

// The fields of the data and of its Environment, per renderer.
constexpr std::string_view kTazunaRoot[] = {"Environment", "StateValues", "Values"};
constexpr std::string_view kHelmfileRoot[] = {"Environment", "Namespace", "StateValues", "Values"};
constexpr std::string_view kTazunaEnv[] = {"Name"};
constexpr std::string_view kHelmfileEnv[] = {"CLIOverrides", "Defaults", "KubeContext", "Name",
                                             "Values"};

// An argument of a call: its node (null for the value piped in) and its value.
struct Arg {
  const Node* node;
  Val val;
  const gotmpl::StringNode* literal() const {
    return node && node->type == NodeType::kString ? static_cast<const gotmpl::StringNode*>(node)
                                                   : nullptr;
  }
};

class Checker {
 public:
  Checker(const gotmpl::TreeSet& set, std::string_view file, const hintfile::HintFile& hint,
          Flavor flavor, Usage& usage, diag::Diagnostics& diags)
      : set_(set), file_(file), hint_(hint), flavor_(flavor), usage_(usage), diags_(diags) {}

  void run() {
    auto main = set_.trees.find(set_.main);
    if (main != set_.trees.end()) check_tree(main->second, Val{Kind::kRoot});
    // Defines that nothing here calls (helmfile's helper files may): checked knowing nothing
    // of their dot, so only what they do with variables of their own is followed.
    for (const auto& [name, tree] : set_.trees) {
      if (!reached_.count(name)) check_tree(tree, Val{});
    }
  }

 private:
  // ---- places and messages ----
  diag::Span span(size_t pos, size_t length) const {
    return diag::Span{std::string(file_), set_.position(pos), set_.position(pos + length)};
  }

  void undeclared(std::string_view name, size_t pos, size_t length) {
    auto& d =
        diags_.error("HK402", span(pos, length),
                     "var " + in_quotes(name) + " is not declared in the hint", std::string(name));
    if (names_.empty()) names_ = hint_.var_names();  // made for the first mistake only
    if (auto near = diag::nearest(name, names_)) {
      d.hints.push_back("did you mean " + in_quotes(*near) + "?");
      if (const hintfile::Var* v = hint_.find(*near)) {
        d.related.push_back({v->span, in_quotes(*near) + " is declared here"});
      }
    }
  }

  void no_such_field(std::span<const std::string_view> fields, std::string_view what,
                     std::string_view name, size_t pos, size_t length) {
    auto& d = diags_.error("HK406", span(pos, length),
                           std::string(what) + " has no field " + in_quotes(name));
    std::string hint = diag::did_you_mean(name, fields);
    if (!hint.empty()) d.hints.push_back(hint);
  }

  static std::string_view type_name(const hintfile::Var& v) {
    return v.type ? hintfile::to_string(*v.type) : "value";
  }

  // ---- values ----
  void consume(const Val& v) {
    if (v.kind == Kind::kVars || v.kind == Kind::kRoot) usage_.whole = true;
  }

  Val field(const Val& base, std::string_view name, size_t pos, size_t length) {
    switch (base.kind) {
      case Kind::kRoot: {
        const bool tazuna = flavor_ == Flavor::kTazuna;
        if (name == "Values" || name == "StateValues") return Val{Kind::kVars};
        if (name == "Environment") return Val{Kind::kEnv};
        if (name == "Namespace" && !tazuna) return Val{Kind::kString};
        if (tazuna) {
          no_such_field(kTazunaRoot, "the template data", name, pos, length);
        } else {
          no_such_field(kHelmfileRoot, "the template data", name, pos, length);
        }
        return Val{};
      }
      case Kind::kVars: {
        const hintfile::Var* v = hint_.find(name);
        if (!v) {
          undeclared(name, pos, length);
          return Val{};
        }
        const auto index = static_cast<size_t>(v - hint_.vars.data());
        if (usage_.referenced.size() < hint_.vars.size()) {
          usage_.referenced.resize(hint_.vars.size());
        }
        usage_.referenced[index] = true;
        return Val{Kind::kVar, v};
      }
      case Kind::kVar: {
        const hintfile::Var& v = *base.var;
        if (v.type == hintfile::VarType::kString || v.type == hintfile::VarType::kSlice) {
          auto& d = diags_.error("HK403", span(pos, length),
                                 "var " + in_quotes(v.name) + " is a " + std::string(type_name(v)) +
                                     ": it has no field " + in_quotes(name),
                                 v.name);
          d.related.push_back({v.type_span.known() ? v.type_span : v.span, "declared here"});
        }
        return Val{};
      }
      case Kind::kEnv: {
        const bool tazuna = flavor_ == Flavor::kTazuna;
        if (name == "Name") return Val{Kind::kString};
        if (!tazuna) {
          if (name == "KubeContext") return Val{Kind::kString};
          if (name == "Values") return Val{Kind::kVars};
          if (name == "Defaults" || name == "CLIOverrides") return Val{};
          no_such_field(kHelmfileEnv, ".Environment", name, pos, length);
        } else {
          no_such_field(kTazunaEnv, ".Environment", name, pos, length);
        }
        return Val{};
      }
      case Kind::kString:
        diags_.error("HK403", span(pos, length), "a string has no field " + in_quotes(name));
        return Val{};
      case Kind::kUnknown:
        return Val{};
    }
    return Val{};
  }

  Val fields(Val v, std::span<const std::string_view> names, std::span<const size_t> pos,
             size_t from) {
    for (size_t i = from; i < names.size(); ++i) {
      v = field(v, names[i], pos[i], names[i].size() + 1);
    }
    return v;
  }

  // The innermost variable of that name in the tree being checked (a tree sees only its own).
  Val* lookup(std::string_view name) {
    for (size_t i = vars_.size(); i > frame_; --i) {
      if (vars_[i - 1].first == name) return &vars_[i - 1].second;
    }
    return nullptr;
  }

  Val value(const Node& n) {
    switch (n.type) {
      case NodeType::kField: {
        const auto& f = static_cast<const gotmpl::FieldNode&>(n);
        return fields(dot_, f.ident, f.ident_pos, 0);
      }
      case NodeType::kVariable: {
        const auto& v = static_cast<const gotmpl::VariableNode&>(n);
        const Val* bound = lookup(v.ident[0]);
        return fields(bound ? *bound : Val{}, v.ident, v.ident_pos, 1);
      }
      case NodeType::kChain: {
        const auto& c = static_cast<const gotmpl::ChainNode&>(n);
        return fields(value(*c.node), c.field, c.field_pos, 0);
      }
      case NodeType::kDot:
        return dot_;
      case NodeType::kPipe:
        return pipe(static_cast<const gotmpl::PipeNode&>(n), Use::kValue);
      default:
        return Val{};  // literals, niladic functions
    }
  }

  // How a pipeline's value is used where it stands.
  enum class Use {
    kPrint,      // an action: printed (the map printed whole uses every var)
    kCondition,  // if / with: tested
    kValue,      // an argument, a template's data
  };

  Val pipe(const gotmpl::PipeNode& p, Use use) {
    Val v;
    for (size_t i = 0; i < p.cmds.size(); ++i) {
      std::optional<Val> piped;
      if (i > 0) piped = v;
      v = command(*p.cmds[i], piped);
    }
    if (!p.decl.empty()) {
      bind(p, v);
    } else if (use == Use::kPrint) {
      consume(v);
    }
    return v;
  }

  void bind(const gotmpl::PipeNode& p, const Val& v) {
    for (const auto& d : p.decl) {
      if (p.is_assign) {
        Val* bound = lookup(d->ident[0]);
        if (bound && !(*bound == v)) {
          consume(*bound);
          *bound = Val{};
        }
      } else {
        vars_.emplace_back(d->ident[0], v);
      }
    }
  }

  Val command(const gotmpl::CommandNode& c, std::optional<Val> piped) {
    const Node& first = *c.args[0];
    if (first.type != NodeType::kIdentifier) {
      Val v = value(first);
      // More arguments (or a piped value) than a value takes: Go fails at run time; what
      // they hold is still checked, and a map among them is handed on.
      for (size_t i = 1; i < c.args.size(); ++i) consume(value(*c.args[i]));
      if (piped) consume(*piped);
      return v;
    }
    // The arguments go on one stack shared by all calls (a call's arguments may hold calls of
    // their own), not in a list made per call.
    const size_t base = args_.size();
    for (size_t i = 1; i < c.args.size(); ++i) {
      Val v = value(*c.args[i]);
      args_.push_back(Arg{c.args[i], v});
    }
    if (piped) args_.push_back(Arg{nullptr, *piped});
    const Val result = call(static_cast<const gotmpl::IdentifierNode&>(first).ident,
                            std::span<const Arg>(args_).subspan(base));
    args_.resize(base);
    return result;
  }

  // A string literal's key: its position is that of the literal (quote included).
  Val key(const Val& base, const gotmpl::StringNode& s) {
    return field(base, s.text, s.pos, s.quoted.size());
  }

  static bool map_like(const Val& v) {
    return v.kind == Kind::kVars || v.kind == Kind::kRoot || v.kind == Kind::kEnv ||
           v.kind == Kind::kVar;
  }

  Val generic(std::span<const Arg> args) {
    for (const Arg& a : args) consume(a.val);
    return Val{};
  }

  Val call(std::string_view fn, std::span<const Arg> args) {
    // index X k1 k2 ...: literal keys are fields; a computed key may read any of them.
    if (fn == "index" && !args.empty()) {
      Val v = args[0].val;
      for (size_t i = 1; i < args.size(); ++i) {
        if (const auto* s = args[i].literal()) {
          v = key(v, *s);
        } else {
          consume(v);
          consume(args[i].val);
          v = Val{};
        }
      }
      return v;
    }
    // helmfile's get / getOrNil "a.b" [default] X: a dotted path into X.
    if ((fn == "get" || fn == "getOrNil") && flavor_ == Flavor::kAny &&
        (args.size() == 2 || args.size() == 3) && args[0].literal() && map_like(args.back().val)) {
      const auto* s = args[0].literal();
      Val v = args.back().val;
      size_t start = 0;
      const std::string_view path = s->text;
      if (path.empty()) {
        consume(v);
        return v;
      }
      while (start <= path.size()) {
        size_t dot = path.find('.', start);
        if (dot == std::string::npos) dot = path.size();
        v = field(v, std::string_view(path).substr(start, dot - start), s->pos, s->quoted.size());
        start = dot + 1;
      }
      if (args.size() == 3) consume(args[1].val);
      return v;
    }
    // sprig's get X "k" (helmfile calls it sprigGet) and hasKey X "k".
    if ((fn == "get" || fn == "sprigGet" || fn == "hasKey") && args.size() == 2 &&
        args[1].literal()) {
      Val v = key(args[0].val, *args[1].literal());
      return fn == "hasKey" ? Val{} : v;
    }
    // pluck "k" X Y ...: the key in each.
    if (fn == "pluck" && !args.empty() && args[0].literal()) {
      for (size_t i = 1; i < args.size(); ++i) (void)key(args[i].val, *args[0].literal());
      return Val{};
    }
    // dig "k1" "k2" ... default X.
    if (fn == "dig" && args.size() >= 3 &&
        std::all_of(args.begin(), args.end() - 2, [](const Arg& a) { return a.literal(); })) {
      Val v = args.back().val;
      for (size_t i = 0; i + 2 < args.size(); ++i) v = key(v, *args[i].literal());
      consume(args[args.size() - 2].val);
      return v;
    }
    // pick X "k1" "k2" ...: a map of those keys.
    if (fn == "pick" && args.size() >= 2 &&
        std::all_of(args.begin() + 1, args.end(), [](const Arg& a) { return a.literal(); })) {
      for (size_t i = 1; i < args.size(); ++i) (void)key(args[0].val, *args[i].literal());
      return Val{};
    }
    // required "message" X and default D X hand X on.
    if ((fn == "required" || fn == "default") && args.size() == 2) {
      consume(args[0].val);
      return args[1].val;
    }
    return generic(args);
  }

  // ---- nodes ----
  void list(const gotmpl::ListNode& l) {
    for (const gotmpl::NodePtr& n : l.nodes) node(*n);
  }

  void node(const Node& n) {
    switch (n.type) {
      case NodeType::kAction:
        pipe(*static_cast<const gotmpl::ActionNode&>(n).pipe, Use::kPrint);
        return;
      case NodeType::kIf:
      case NodeType::kWith:
      case NodeType::kRange:
        branch(static_cast<const gotmpl::BranchNode&>(n));
        return;
      case NodeType::kTemplate:
        call_template(static_cast<const gotmpl::TemplateNode&>(n));
        return;
      case NodeType::kList:
        list(static_cast<const gotmpl::ListNode&>(n));
        return;
      default:
        return;  // text, comments, break, continue
    }
  }

  void branch(const gotmpl::BranchNode& b) {
    const size_t scope = vars_.size();
    const Val outer = dot_;
    if (b.type == NodeType::kRange) {
      Val v;
      for (size_t i = 0; i < b.pipe->cmds.size(); ++i) {
        std::optional<Val> piped;
        if (i > 0) piped = v;
        v = command(*b.pipe->cmds[i], piped);
      }
      if (v.kind == Kind::kVar && v.var->type == hintfile::VarType::kString) {
        const Node& at = *b.pipe->cmds.back();
        auto& d = diags_.error("HK404", span(at.pos, 1),
                               "range over var " + in_quotes(v.var->name) +
                                   ", a string: Go's range cannot iterate over a string",
                               v.var->name);
        d.related.push_back(
            {v.var->type_span.known() ? v.var->type_span : v.var->span, "declared here"});
      }
      consume(v);  // ranging over the map reads every var
      for (const auto& d : b.pipe->decl) vars_.emplace_back(d->ident[0], Val{});
      dot_ = Val{};
      list(*b.list);
    } else {
      Val v = pipe(*b.pipe, Use::kCondition);
      if (b.type == NodeType::kWith) dot_ = v;
      list(*b.list);
    }
    dot_ = outer;
    if (b.else_list) list(*b.else_list);
    vars_.resize(scope);
  }

  void call_template(const gotmpl::TemplateNode& t) {
    Val v = t.pipe ? pipe(*t.pipe, Use::kValue) : Val{};
    auto it = set_.trees.find(t.name);
    if (it == set_.trees.end()) {
      consume(v);  // defined elsewhere (a helper file): it may read anything
      return;
    }
    if (depth_ >= kMaxTemplateDepth) {
      consume(v);
      return;
    }
    check_tree(it->second, v);
  }

  void check_tree(const gotmpl::Tree& tree, const Val& dot) {
    reached_.insert(tree.name);
    const auto key = std::make_tuple(tree.name, dot.kind, dot.var);
    if (!checked_.insert(key).second) return;
    // The tree's variables go above the caller's, which it cannot see.
    const size_t saved_frame = frame_;
    const size_t saved_size = vars_.size();
    const Val saved_dot = dot_;
    frame_ = vars_.size();
    vars_.emplace_back("$", dot);
    dot_ = dot;
    ++depth_;
    list(*tree.root);
    --depth_;
    vars_.resize(saved_size);
    frame_ = saved_frame;
    dot_ = saved_dot;
  }

  const gotmpl::TreeSet& set_;
  std::string_view file_;
  const hintfile::HintFile& hint_;
  Flavor flavor_;
  Usage& usage_;
  diag::Diagnostics& diags_;
  std::vector<std::string> names_;
  // Names view the template text (or the trees' names in set_, which outlive the check).
  std::vector<std::pair<std::string_view, Val>> vars_;
  size_t frame_ = 0;       // where the variables of the tree being checked start in vars_
  std::vector<Arg> args_;  // the arguments of the calls being checked
  Val dot_;
  int depth_ = 0;
  std::set<std::string_view> reached_;
  std::set<std::tuple<std::string_view, Kind, const hintfile::Var*>> checked_;
};

gotmpl::Options parse_options(Flavor flavor) {
  gotmpl::Options options;
  options.is_function = [flavor](std::string_view name) { return is_function(flavor, name); };
  return options;
}

void check_parsed(const diag::Result<gotmpl::TreeSet, gotmpl::ParseError>& parsed,
                  std::string_view file, const hintfile::HintFile& hint, Flavor flavor,
                  Usage& usage, diag::Diagnostics& diags) {
  if (!parsed.ok()) {
    const gotmpl::ParseError& e = parsed.error();
    auto& d = diags.error("HK401", diag::Span{std::string(file), e.at, e.at},
                          "template does not parse: " + e.message);
    // "function \"x\" not defined": the nearest function of this renderer.
    const std::string_view prefix = "function \"";
    if (e.message.rfind(prefix, 0) == 0 && e.message.ends_with("\" not defined")) {
      const std::string name =
          e.message.substr(prefix.size(), e.message.size() - prefix.size() - 13);
      if (auto near = diag::nearest(name, function_names(flavor))) {
        d.hints.push_back("did you mean " + in_quotes(*near) + "?");
      }
    }
    usage.whole = true;  // what it uses is unknown: no var is reported unused
    return;
  }
  Checker(*parsed, file, hint, flavor, usage, diags).run();
}

}  // namespace

void check_template(std::string_view text, std::string_view file, const hintfile::HintFile& hint,
                    Flavor flavor, Usage& usage, diag::Diagnostics& diags) {
  check_parsed(gotmpl::parse(text, file, parse_options(flavor)), file, hint, flavor, usage, diags);
}

void report_unused(const hintfile::HintFile& hint, const Usage& usage, std::string_view templates,
                   diag::Diagnostics& diags) {
  if (usage.whole) return;
  for (size_t i = 0; i < hint.vars.size(); ++i) {
    const hintfile::Var& v = hint.vars[i];
    if (usage.is_referenced(i)) continue;
    diags.warning("HK405", v.span,
                  "var " + in_quotes(v.name) + " is declared but no template uses it (checked " +
                      std::string(templates) + ")",
                  v.name);
  }
}

void check_manifest(const std::string& helmfile, const hintfile::HintFile& hint, Flavor flavor,
                    diag::Diagnostics& diags) {
  auto text = fileio::read_file(helmfile, kMaxTemplateBytes);
  if (!text.ok()) {
    diags.error("HK010", diag::Span{helmfile, {}, {}}, text.error().message);
    return;
  }
  Usage usage;
  check_parsed(gotmpl::parse_owned(std::move(*text), helmfile, parse_options(flavor)), helmfile,
               hint, flavor, usage, diags);
  report_unused(hint, usage, helmfile, diags);
}

}  // namespace hintkit::tmplcheck
