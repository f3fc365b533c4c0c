// The parser of Go's text/template/parse (parse.go, node.go's constructors), one method per Go
// function, over the items of lex.h. Go stops at the first error by panicking; this parser
// throws an internal `Stop` that `parse()` turns into a ParseError.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>

#include "gocompat/gocompat.h"
#include "gotmpl/gotmpl.h"
#include "gotmpl/lex.h"

namespace hintkit::gotmpl {
namespace {

// ---- strconv --------------------------------------------------------------------------

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool valid_rune(uint32_t v) { return v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF); }

// strconv.UnquoteChar: decodes the first character or escape of `s` (advancing it). `byte_value`
// is set for \x and octal escapes, which a string takes as one raw byte.
bool unquote_char(std::string_view& s, char quote, uint32_t& value, bool& byte_value) {
  byte_value = false;
  if (s.empty()) return false;
  const unsigned char c = static_cast<unsigned char>(s[0]);
  if (c == static_cast<unsigned char>(quote) && (quote == '\'' || quote == '"')) return false;
  if (c >= 0x80) {
    gocompat::Rune r = gocompat::decode_rune(s, 0);
    value = r.cp;
    s.remove_prefix(r.width);
    return true;
  }
  if (c != '\\') {
    value = c;
    s.remove_prefix(1);
    return true;
  }
  if (s.size() <= 1) return false;
  const char e = s[1];
  s.remove_prefix(2);
  switch (e) {
    case 'a':
      value = '\a';
      return true;
    case 'b':
      value = '\b';
      return true;
    case 'f':
      value = '\f';
      return true;
    case 'n':
      value = '\n';
      return true;
    case 'r':
      value = '\r';
      return true;
    case 't':
      value = '\t';
      return true;
    case 'v':
      value = '\v';
      return true;
    case 'x':
    case 'u':
    case 'U': {
      const size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      if (s.size() < n) return false;
      uint32_t v = 0;
      for (size_t j = 0; j < n; ++j) {
        int h = hex_value(s[j]);
        if (h < 0) return false;
        v = (v << 4) | static_cast<uint32_t>(h);
      }
      s.remove_prefix(n);
      if (e == 'x') {
        value = v;
        byte_value = true;
        return true;
      }
      if (!valid_rune(v)) return false;
      value = v;
      return true;
    }
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      uint32_t v = static_cast<uint32_t>(e - '0');
      if (s.size() < 2) return false;
      for (size_t j = 0; j < 2; ++j) {
        if (s[j] < '0' || s[j] > '7') return false;
        v = (v << 3) | static_cast<uint32_t>(s[j] - '0');
      }
      if (v > 255) return false;
      s.remove_prefix(2);
      value = v;
      byte_value = true;
      return true;
    }
    case '\\':
      value = '\\';
      return true;
    case '\'':
    case '"':
      if (e != quote) return false;
      value = static_cast<uint32_t>(e);
      return true;
    default:
      return false;
  }
}

// strconv.Unquote's trivial case, which needs no copy: a raw string without a carriage return,
// or a quoted one without escapes whose text is valid UTF-8 (the lexer has seen to the quotes).
// The text between the quotes, or nothing when the whole unquoting must run.
std::optional<std::string_view> unquote_trivial(std::string_view s) {
  if (s.size() < 2 || s.front() != s.back()) return std::nullopt;
  const char quote = s.front();
  s = s.substr(1, s.size() - 2);
  if (quote == '`') {
    if (s.find_first_of("`\r") != std::string_view::npos) return std::nullopt;
    return s;
  }
  if (quote != '"' || s.find_first_of("\\\"\n") != std::string_view::npos) return std::nullopt;
  if (!gocompat::valid_utf8(s)) return std::nullopt;
  return s;
}

// strconv.Unquote for "..." and `...`.
std::optional<std::string> unquote(std::string_view s) {
  if (s.size() < 2 || s.front() != s.back()) return std::nullopt;
  const char quote = s.front();
  s = s.substr(1, s.size() - 2);
  std::string out;
  if (quote == '`') {
    if (s.find('`') != std::string_view::npos) return std::nullopt;
    for (char c : s) {
      if (c != '\r') out += c;
    }
    return out;
  }
  if (quote != '"') return std::nullopt;
  if (s.find('\n') != std::string_view::npos) return std::nullopt;
  while (!s.empty()) {
    uint32_t v;
    bool byte_value;
    if (!unquote_char(s, '"', v, byte_value)) return std::nullopt;
    if (v < 0x80 || byte_value) {
      out += static_cast<char>(v);
    } else {
      gocompat::append_rune(out, v);
    }
  }
  return out;
}

// strconv.ParseFloat(s, 64) as Go's parser uses it: an error of either kind is no float.
std::optional<double> parse_float(std::string_view s) {
  double d = 0;
  if (gocompat::parse_float(s, d) != gocompat::ParseStatus::kOk) return std::nullopt;
  return d;
}

// ---- the parser ------------------------------------------------------------------------

struct Stop {
  std::string message;
  size_t offset;       // npos: where the parser stood
  bool limit = false;  // past kMaxNesting (Go has no such limit)
};
constexpr size_t kHere = static_cast<size_t>(-1);

class Parser {
 public:
  Parser(const Lexed& lexed, const Options& options, TreeSet& set)
      : items_(lexed.items),
        last_(lexed.items.size() - 1),
        options_(options),
        set_(set),
        arena_(set.arena()) {}

  void parse_main(const std::string& name) {
    Tree t;
    t.name = name;
    t.root = make_listed<ListNode>(peek().pos);
    start_tree();
    while (peek().type != ItemType::kEOF) {
      if (peek().type == ItemType::kLeftDelim) {
        const size_t delim = i_;
        next();
        if (next_non_space().type == ItemType::kDefine) {
          parse_definition();
          continue;
        }
        backup(i_ - delim);
      }
      NodePtr n = text_or_action();
      if (is_end(n) || is_else(n)) errorf("unexpected " + end_or_else(n), n->pos);
      t.root->nodes.push_back(n);
    }
    add(std::move(t));
  }

  size_t error_offset(const Stop& stop) const {
    if (stop.offset != kHere) return stop.offset;
    const size_t furthest = std::max(read_up_to_, i_);  // one past the furthest item read
    return items_[std::min(furthest == 0 ? 0 : furthest - 1, last_)].pos;
  }

 private:
  // The parser's own markers for {{end}} and {{else}}: Go's unexported nodeEnd / nodeElse.
  // They carry node types outside NodeType's values; they never leave the parser.
  static constexpr NodeType kEndMarker = static_cast<NodeType>(-1);
  static constexpr NodeType kElseMarker = static_cast<NodeType>(-2);
  struct EndNode : Node {
    explicit EndNode(size_t p) : Node(kEndMarker, p) {}
  };
  struct ElseNode : Node {
    explicit ElseNode(size_t p) : Node(kElseMarker, p) {}
  };
  static bool is_end(const NodePtr& n) { return n->type == kEndMarker; }
  static bool is_else(const NodePtr& n) { return n->type == kElseMarker; }
  static std::string end_or_else(const NodePtr& n) { return is_end(n) ? "{{end}}" : "{{else}}"; }

  // ---- tokens ----
  // The lexer's last item is EOF or an error: reading stops there.
  const Item& next() {
    if (i_ > last_) return items_[last_];
    return items_[i_++];
  }
  // The furthest item read is noted only when the parser steps back from it (reading is most
  // of the parser's work; stepping back is rare).
  void backup(size_t n = 1) {
    read_up_to_ = std::max(read_up_to_, i_);
    i_ -= n;
  }
  const Item& peek() { return items_[std::min(i_, last_)]; }
  // Spaces are no items here (Item::space_before), so the next item is the next non-space.
  const Item& next_non_space() { return next(); }
  const Item& peek_non_space() {
    const Item& it = next_non_space();
    backup();
    return it;
  }

  // Go names only the line of the furthest token read; the place given here is the culprit's
  // where one is known (an undefined name, an unexpected token), else that token's.
  [[noreturn]] void errorf(std::string message, size_t at = kHere) {
    throw Stop{std::move(message), at};
  }

  [[noreturn]] void unexpected(const Item& token, std::string_view context) {
    if (token.type == ItemType::kError) {
      std::string extra;
      const int action_line = action_pos_ == kHere ? 0 : set_.position(action_pos_).line;
      if (action_line != 0 && action_line != set_.position(token.pos).line) {
        extra = " in action started at " + set_.main + ":" + std::to_string(action_line);
        if (token.val.ends_with(" action")) extra = extra.substr(std::string(" in action").size());
      }
      errorf(std::string(token.val) + extra, token.pos);
    }
    errorf("unexpected " + to_string(token) + " in " + std::string(context), token.pos);
  }

  const Item& expect(ItemType t, std::string_view context) {
    const Item& token = next_non_space();
    if (token.type != t) unexpected(token, context);
    return token;
  }

  struct Depth {
    explicit Depth(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxNesting) throw Stop{"max nesting depth exceeded", kHere, true};
    }
    ~Depth() { --p_.depth_; }
    Parser& p_;
  };

  // Each tree starts with `$` declared and no enclosing range.
  void start_tree() {
    vars_ = {"$"};
    range_depth_ = 0;
  }

  static bool is_empty_tree(const Node* n) {
    if (n == nullptr) return true;
    switch (n->type) {
      case NodeType::kComment:
        return true;
      case NodeType::kList:
        for (const Node* c : static_cast<const ListNode*>(n)->nodes) {
          if (!is_empty_tree(c)) return false;
        }
        return true;
      case NodeType::kText: {
        const std::string_view s = static_cast<const TextNode*>(n)->text;
        return std::all_of(s.begin(), s.end(), [](char c) {
          return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
        });
      }
      default:
        return false;
    }
  }

  // Go's Tree.add: a later non-empty definition of a name that has a non-empty one is an error.
  void add(Tree t) {
    auto it = set_.trees.find(t.name);
    if (it == set_.trees.end() || is_empty_tree(it->second.root)) {
      set_.trees[t.name] = std::move(t);
      return;
    }
    if (!is_empty_tree(t.root)) {
      errorf("template: multiple definition of template " + gocompat::quote(t.name));
    }
  }

  std::string_view parse_template_name(const Item& token, std::string_view context) {
    if (token.type != ItemType::kString && token.type != ItemType::kRawString) {
      unexpected(token, context);
    }
    auto s = unquote(token.val);
    if (!s) errorf("invalid syntax");
    return keep(*s);
  }

  // {{define "name"}} ... {{end}}: a tree of its own, with its own variables.
  void parse_definition() {
    const std::vector<std::string_view> saved_vars = vars_;
    const int saved_range = range_depth_;
    start_tree();
    const Item& name = next_non_space();
    if (name.type != ItemType::kString && name.type != ItemType::kRawString) {
      unexpected(name, "define clause");
    }
    Tree t;
    auto s = unquote(name.val);
    if (!s) errorf("invalid syntax");
    t.name = *s;
    t.pos = name.pos;
    expect(ItemType::kRightDelim, "define clause");
    NodePtr end;
    t.root = item_list(end);
    if (!is_end(end)) errorf("unexpected " + end_or_else(end) + " in define clause", end->pos);
    add(std::move(t));
    vars_ = saved_vars;
    range_depth_ = saved_range;
  }

  ListNode* item_list(NodePtr& next_node) {
    auto* list = make_listed<ListNode>(peek_non_space().pos);
    while (peek_non_space().type != ItemType::kEOF) {
      NodePtr n = text_or_action();
      if (is_end(n) || is_else(n)) {
        next_node = n;
        return list;
      }
      list->nodes.push_back(n);
    }
    errorf("unexpected EOF");
  }

  NodePtr text_or_action() {
    const Item& token = next_non_space();
    switch (token.type) {
      case ItemType::kText:
        return make<TextNode>(token.pos, token.val);
      case ItemType::kLeftDelim: {
        action_pos_ = token.pos;
        NodePtr n = action();
        action_pos_ = kHere;
        return n;
      }
      case ItemType::kComment:
        return make<CommentNode>(token.pos, token.val);
      default:
        unexpected(token, "input");
    }
  }

  NodePtr action() {
    Depth depth(*this);
    const Item& token = next_non_space();
    switch (token.type) {
      case ItemType::kBlock:
        return block_control();
      case ItemType::kBreak:
        return break_control(token.pos, "{{break}}");
      case ItemType::kContinue:
        return break_control(token.pos, "{{continue}}");
      case ItemType::kElse:
        return else_control(token.pos);
      case ItemType::kEnd:
        expect(ItemType::kRightDelim, "end");
        return make<EndNode>(token.pos);
      case ItemType::kIf:
        return control(NodeType::kIf, "if");
      case ItemType::kRange:
        return control(NodeType::kRange, "range");
      case ItemType::kTemplate:
        return template_control();
      case ItemType::kWith:
        return control(NodeType::kWith, "with");
      default:
        break;
    }
    backup();
    const size_t pos = peek().pos;
    // Variables declared here persist until the enclosing {{end}}.
    return make<ActionNode>(pos, pipeline("command", ItemType::kRightDelim));
  }

  NodePtr break_control(size_t pos, std::string_view what) {
    const Item& token = next_non_space();
    if (token.type != ItemType::kRightDelim) unexpected(token, what);
    if (range_depth_ == 0) errorf(std::string(what) + " outside {{range}}");
    if (what == "{{break}}") return make<BreakNode>(pos);
    return make<ContinueNode>(pos);
  }

  // `{{else if` / `{{else with` leave the keyword pending: the else is their else list.
  // (The marker stands at the `else` keyword, for messages about it.)
  NodePtr else_control(size_t pos) {
    const Item& p = peek_non_space();
    if (p.type != ItemType::kIf && p.type != ItemType::kWith) {
      expect(ItemType::kRightDelim, "else");
    }
    return make<ElseNode>(pos);
  }

  NodePtr control(NodeType type, std::string_view context) {
    Depth depth(*this);
    const size_t saved_vars = vars_.size();
    auto* node = make<BranchNode>(type, 0);
    node->pipe = pipeline(context, ItemType::kRightDelim);
    node->pos = node->pipe->pos;
    if (type == NodeType::kRange) ++range_depth_;
    NodePtr next_node;
    node->list = item_list(next_node);
    if (type == NodeType::kRange) --range_depth_;
    if (is_else(next_node)) {
      const ItemType pending = peek().type;
      if ((type == NodeType::kIf && pending == ItemType::kIf) ||
          (type == NodeType::kWith && pending == ItemType::kWith)) {
        // {{if a}}_{{else if b}}_{{end}} is {{if a}}_{{else}}{{if b}}_{{end}}{{end}}: the
        // nested one takes the only {{end}}.
        next();
        node->else_list = make_listed<ListNode>(next_node->pos);
        node->else_list->nodes.push_back(control(type, type == NodeType::kIf ? "if" : "with"));
      } else {
        node->else_list = item_list(next_node);
        if (!is_end(next_node)) {
          errorf("expected end; found " + end_or_else(next_node), next_node->pos);
        }
      }
    }
    vars_.resize(saved_vars);
    return node;
  }

  NodePtr template_control() {
    const Item& token = next_non_space();
    const size_t pos = token.pos;
    std::string_view name = parse_template_name(token, "template clause");
    PipeNode* pipe = nullptr;
    if (next_non_space().type != ItemType::kRightDelim) {
      backup();
      pipe = pipeline("template clause", ItemType::kRightDelim);
    }
    return make<TemplateNode>(pos, name, pipe);
  }

  NodePtr block_control() {
    const Item& token = next_non_space();
    const size_t pos = token.pos;
    std::string_view name = parse_template_name(token, "block clause");
    PipeNode* pipe = pipeline("block clause", ItemType::kRightDelim);
    // The block's body is a tree of its own (with its own variables), defined here.
    const std::vector<std::string_view> saved_vars = vars_;
    const int saved_range = range_depth_;
    start_tree();
    Tree t;
    t.name = name;
    t.pos = pos;
    NodePtr end;
    t.root = item_list(end);
    if (!is_end(end)) errorf("unexpected " + end_or_else(end) + " in block clause", end->pos);
    add(std::move(t));
    vars_ = saved_vars;
    range_depth_ = saved_range;
    return make<TemplateNode>(pos, name, pipe);
  }

  PipeNode* pipeline(std::string_view context, ItemType end) {
    Depth depth(*this);
    auto* pipe = make_listed<PipeNode>(peek_non_space().pos);
    // Arena lists cannot give back what they outgrow: room for a usual pipeline at once.
    pipe->cmds.reserve(4);
  decls:
    if (peek_non_space().type == ItemType::kVariable) {
      const size_t v_index = i_;
      const Item& v = next();
      const Item& nx = peek_non_space();
      if (nx.type == ItemType::kAssign || nx.type == ItemType::kDeclare) {
        pipe->is_assign = nx.type == ItemType::kAssign;
        next_non_space();
        pipe->decl.push_back(new_variable(v.pos, v.val));
        vars_.emplace_back(v.val);
      } else if (nx.type == ItemType::kChar && nx.val == ",") {
        next_non_space();
        pipe->decl.push_back(new_variable(v.pos, v.val));
        vars_.emplace_back(v.val);
        if (context == "range" && pipe->decl.size() < 2) {
          switch (peek_non_space().type) {
            case ItemType::kVariable:
            case ItemType::kRightDelim:
            case ItemType::kRightParen:
              goto decls;  // the second variable of a range
            default:
              errorf("range can only initialize variables");
          }
        }
        errorf("too many declarations in " + std::string(context));
      } else {
        // An argument, not a declaration: read it again (Go's backup2/backup3).
        backup(i_ - v_index);
      }
    }
    while (true) {
      const Item& token = next_non_space();
      if (token.type == end) {
        check_pipeline(*pipe, context);
        return pipe;
      }
      switch (token.type) {
        case ItemType::kBool:
        case ItemType::kCharConstant:
        case ItemType::kComplex:
        case ItemType::kDot:
        case ItemType::kField:
        case ItemType::kIdentifier:
        case ItemType::kNumber:
        case ItemType::kNil:
        case ItemType::kRawString:
        case ItemType::kString:
        case ItemType::kVariable:
        case ItemType::kLeftParen:
          backup();
          pipe->cmds.push_back(command());
          break;
        default:
          unexpected(token, context);
      }
    }
  }

  void check_pipeline(const PipeNode& pipe, std::string_view context) {
    if (pipe.cmds.empty()) errorf("missing value for " + std::string(context));
    for (size_t i = 1; i < pipe.cmds.size(); ++i) {
      switch (pipe.cmds[i]->args[0]->type) {
        case NodeType::kBool:
        case NodeType::kDot:
        case NodeType::kNil:
        case NodeType::kNumber:
        case NodeType::kString:
          errorf("non executable command in pipeline stage " + std::to_string(i + 1),
                 pipe.cmds[i]->pos);
        default:
          break;
      }
    }
  }

  CommandNode* command() {
    auto* cmd = make_listed<CommandNode>(peek_non_space().pos);
    cmd->args.reserve(4);
    size_t spaced = kHere;  // the item whose space before it was taken as Go's space item
    while (true) {
      peek_non_space();
      NodePtr op = operand();
      if (op) cmd->args.push_back(op);
      const Item& token = next();
      if (token.space_before && spaced != i_) {
        // Go reads the space as an item and goes round again; the item itself comes next.
        spaced = i_;
        backup();
        continue;
      }
      if (token.type == ItemType::kRightDelim || token.type == ItemType::kRightParen) {
        backup();
      } else if (token.type != ItemType::kPipe) {
        unexpected(token, "operand");
      }
      break;
    }
    if (cmd->args.empty()) errorf("empty command");
    return cmd;
  }

  // Appends the fields that follow to a field's or variable's own list (Go's operand makes a
  // new node of the chain's text; the result is the same). Done in place: `.Values.x`, the most
  // common operand of a helmfile, then costs no temporary lists.
  // A field right after a term (no space between) chains onto it.
  bool at_chained_field() {
    const Item& it = peek();
    return it.type == ItemType::kField && !it.space_before;
  }

  template <typename N>
  NodePtr extend(NodePtr node) {
    auto* n = static_cast<N*>(node);
    n->pos = peek().pos;  // Go: the new node takes the chain's position
    while (at_chained_field()) {
      const Item& f = next();
      n->ident.emplace_back(f.val.substr(1));
      n->ident_pos.push_back(f.pos);
    }
    return node;
  }

  NodePtr operand() {
    NodePtr node = term();
    if (!node) return nullptr;
    if (at_chained_field() && node->type == NodeType::kField) {
      return extend<FieldNode>(node);
    }
    if (at_chained_field() && node->type == NodeType::kVariable) {
      return extend<VariableNode>(node);
    }
    if (at_chained_field()) {
      const size_t chain_pos = peek().pos;
      NodeList<std::string_view> fields(arena_);
      NodeList<size_t> field_pos(arena_);
      while (at_chained_field()) {
        const Item& f = next();
        fields.emplace_back(f.val.substr(1));
        field_pos.push_back(f.pos);
      }
      switch (node->type) {
        case NodeType::kField: {
          auto* f = static_cast<FieldNode*>(node);
          f->ident.insert(f->ident.end(), fields.begin(), fields.end());
          f->ident_pos.insert(f->ident_pos.end(), field_pos.begin(), field_pos.end());
          f->pos = chain_pos;  // Go: the new node takes the chain's position
          break;
        }
        case NodeType::kVariable: {
          auto* v = static_cast<VariableNode*>(node);
          v->ident.insert(v->ident.end(), fields.begin(), fields.end());
          v->ident_pos.insert(v->ident_pos.end(), field_pos.begin(), field_pos.end());
          v->pos = chain_pos;
          break;
        }
        case NodeType::kBool:
        case NodeType::kString:
        case NodeType::kNumber:
        case NodeType::kNil:
        case NodeType::kDot:
          errorf("unexpected . after term " + gocompat::quote(to_string(*node)));
        default: {
          auto* chain = make_listed<ChainNode>(chain_pos, node);
          chain->field = std::move(fields);
          chain->field_pos = std::move(field_pos);
          node = chain;
        }
      }
    }
    return node;
  }

  NodePtr term() {
    const Item& token = next_non_space();
    switch (token.type) {
      case ItemType::kIdentifier:
        if (options_.is_function && !options_.is_function(token.val)) {
          errorf("function " + gocompat::quote(token.val) + " not defined", token.pos);
        }
        return make<IdentifierNode>(token.pos, token.val);
      case ItemType::kDot:
        return make<DotNode>(token.pos);
      case ItemType::kNil:
        return make<NilNode>(token.pos);
      case ItemType::kVariable:
        return use_var(token.pos, token.val);
      case ItemType::kField: {
        auto* f = make_listed<FieldNode>(token.pos);
        // Room for `.Values.x` in one allocation each.
        f->ident.reserve(2);
        f->ident_pos.reserve(2);
        f->ident.emplace_back(token.val.substr(1));
        f->ident_pos.push_back(token.pos);
        return f;
      }
      case ItemType::kBool:
        return make<BoolNode>(token.pos, token.val == "true");
      case ItemType::kCharConstant:
      case ItemType::kComplex:
      case ItemType::kNumber:
        return new_number(token);
      case ItemType::kLeftParen:
        return pipeline("parenthesized pipeline", ItemType::kRightParen);
      case ItemType::kString:
      case ItemType::kRawString: {
        // The token views the TreeSet's text, so a trivial string's text is a view of it.
        if (auto trivial = unquote_trivial(token.val)) {
          return make<StringNode>(token.pos, token.val, *trivial);
        }
        auto s = unquote(token.val);
        if (!s) errorf("invalid syntax");
        return make<StringNode>(token.pos, token.val, keep(*s));
      }
      default:
        backup();
        return nullptr;
    }
  }

  VariableNode* new_variable(size_t pos, std::string_view name) {
    auto* v = make_listed<VariableNode>(pos);
    v->ident.emplace_back(name);
    v->ident_pos.push_back(pos);
    return v;
  }

  NodePtr use_var(size_t pos, std::string_view name) {
    if (std::find(vars_.begin(), vars_.end(), name) == vars_.end()) {
      errorf("undefined variable " + gocompat::quote(name), pos);
    }
    return new_variable(pos, name);
  }

  NodePtr new_number(const Item& token) {
    auto* n = make<NumberNode>(token.pos, token.val);
    const std::string_view text = n->text;
    if (token.type == ItemType::kCharConstant) {
      std::string_view s = std::string_view(text).substr(1);
      uint32_t v;
      bool byte_value;
      if (!unquote_char(s, '\'', v, byte_value)) errorf("invalid syntax");
      if (s != "'") errorf("malformed character constant: " + std::string(text));
      n->is_int = n->is_uint = n->is_float = true;
      n->int64 = v;
      n->uint64 = v;
      n->float64 = v;
      return n;
    }
    if (token.type == ItemType::kComplex) {
      // "re±imi": both parts are floats.
      size_t split = text.find_first_of("+-", 1);
      while (split != std::string::npos && (text[split - 1] | 0x20) == 'e') {
        split = text.find_first_of("+-", split + 1);
      }
      std::optional<double> re, im;
      if (split != std::string::npos) {
        re = parse_float(std::string_view(text).substr(0, split));
        im = parse_float(std::string_view(text).substr(split, text.size() - split - 1));
      }
      if (!re || !im) errorf("expected integer");  // fmt.Sscan's complaint
      n->is_complex = true;
      n->real = *re;
      n->imag = *im;
      simplify_complex(*n);
      return n;
    }
    if (!text.empty() && text.back() == 'i') {
      if (auto f = parse_float(std::string_view(text).substr(0, text.size() - 1))) {
        n->is_complex = true;
        n->imag = *f;
        simplify_complex(*n);
        return n;
      }
    }
    uint64_t u = 0;
    if (gocompat::parse_uint(text, u) == gocompat::ParseStatus::kOk) {
      n->is_uint = true;
      n->uint64 = u;
    }
    int64_t i = 0;
    if (gocompat::parse_int(text, i) == gocompat::ParseStatus::kOk) {
      n->is_int = true;
      n->int64 = i;
      if (i == 0) {
        n->is_uint = true;
        n->uint64 = u;
      }
    }
    if (n->is_int) {
      n->is_float = true;
      n->float64 = static_cast<double>(n->int64);
    } else if (n->is_uint) {
      n->is_float = true;
      n->float64 = static_cast<double>(n->uint64);
    } else if (auto f = parse_float(text)) {
      if (text.find_first_of(".eEpP") == std::string::npos) {
        errorf("integer overflow: " + gocompat::quote(text));
      }
      n->is_float = true;
      n->float64 = *f;
      if (*f >= -9223372036854775808.0 && *f < 9223372036854775808.0 &&
          static_cast<double>(static_cast<int64_t>(*f)) == *f) {
        n->is_int = true;
        n->int64 = static_cast<int64_t>(*f);
      }
      if (*f >= 0 && *f < 18446744073709551616.0 &&
          static_cast<double>(static_cast<uint64_t>(*f)) == *f) {
        n->is_uint = true;
        n->uint64 = static_cast<uint64_t>(*f);
      }
    }
    if (!n->is_int && !n->is_uint && !n->is_float) {
      errorf("illegal number syntax: " + gocompat::quote(text));
    }
    return n;
  }

  static void simplify_complex(NumberNode& n) {
    n.is_float = n.imag == 0;
    if (n.is_float) {
      n.float64 = n.real;
      if (n.real >= -9223372036854775808.0 && n.real < 9223372036854775808.0 &&
          static_cast<double>(static_cast<int64_t>(n.real)) == n.real) {
        n.is_int = true;
        n.int64 = static_cast<int64_t>(n.real);
      }
      if (n.real >= 0 && n.real < 18446744073709551616.0 &&
          static_cast<double>(static_cast<uint64_t>(n.real)) == n.real) {
        n.is_uint = true;
        n.uint64 = static_cast<uint64_t>(n.real);
      }
    }
  }

  // A node in the set's arena (see Node: never deleted one by one).
  template <typename N, typename... Args>
  N* make(Args&&... args) {
    return new (set_.take(sizeof(N), alignof(N))) N(std::forward<Args>(args)...);
  }
  // Nodes with lists take the arena for them.
  template <typename N, typename... Args>
  N* make_listed(Args&&... args) {
    return make<N>(std::forward<Args>(args)..., arena_);
  }
  // A copy of `s` in the arena.
  std::string_view keep(std::string_view s) {
    if (s.empty()) return {};
    char* p = static_cast<char*>(set_.take(s.size(), 1));
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }

  const std::vector<Item>& items_;
  const size_t last_;
  const Options& options_;
  TreeSet& set_;
  Arena* arena_;
  size_t i_ = 0;
  size_t read_up_to_ = 0;               // see backup()
  std::vector<std::string_view> vars_;  // views of the text, and "$"
  int range_depth_ = 0;
  size_t action_pos_ = kHere;  // the {{ of the action being parsed
  int depth_ = 0;
};

bool has_function(const Options& options, std::string_view name) {
  return options.is_function && options.is_function(name);
}

}  // namespace

bool is_builtin(std::string_view name) {
  static constexpr std::string_view kBuiltins[] = {
      "and",    "call",    "html",     "index", "slice", "js", "len", "not", "or", "print",
      "printf", "println", "urlquery", "eq",    "ge",    "gt", "le",  "lt",  "ne"};
  return std::find(std::begin(kBuiltins), std::end(kBuiltins), name) != std::end(kBuiltins);
}

namespace {

// Blocks up to this size are kept for the next tree, at most kKeptBlocks of them: `lint`
// parses one helmfile after another, and taking fresh memory for each one cost page faults
// that were a tenth of the template check.
constexpr size_t kMaxKeptBlock = 1 << 20;
constexpr size_t kKeptBlocks = 4;
// The arena's first block is sized from the text (about 8 bytes of nodes per byte of a
// helmfile template: one block for most), between these.
constexpr size_t kMinBlock = 4096;
constexpr size_t kMaxFirstBlock = 1 << 20;

// Freed blocks, process-wide: trees may be freed on another thread than the one that made
// them, hence the lock (never contended in practice).
class BlockCache {
 public:
  void* take(size_t size) {
    {
      std::lock_guard lock(mu_);
      for (size_t i = 0; i < kept_.size(); ++i) {
        if (kept_[i].second == size) {
          void* p = kept_[i].first;
          kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(i));
          return p;
        }
      }
    }
    return ::operator new(size);
  }
  void give(void* p, size_t size) {
    if (size <= kMaxKeptBlock) {
      std::lock_guard lock(mu_);
      if (kept_.size() < kKeptBlocks) {
        kept_.emplace_back(p, size);
        return;
      }
    }
    ::operator delete(p);
  }

 private:
  std::mutex mu_;
  std::vector<std::pair<void*, size_t>> kept_;
};

BlockCache& block_cache() {
  static auto* cache = new BlockCache();  // never destroyed: trees may be freed at exit
  return *cache;
}

}  // namespace

// A bump allocator: nodes take their memory inline (`take`), node lists through the
// memory_resource interface; nothing is freed before the whole arena.
class TreeSet::NodeArena final : public std::pmr::memory_resource {
 public:
  explicit NodeArena(size_t text_size)
      : next_size_(std::clamp<size_t>(text_size * 8, kMinBlock, kMaxFirstBlock)) {
    next_size_ = (next_size_ + kMinBlock - 1) & ~(kMinBlock - 1);  // similar texts, same size
  }
  ~NodeArena() override {
    for (auto [p, size] : blocks_) block_cache().give(p, size);
  }

  Bump bump;  // TreeSet::take reads and moves it inline

  // A new block, and `bytes` from it.
  void* grow(size_t bytes, size_t align) {
    size_t size = next_size_;
    while (size < bytes + align) size *= 2;
    void* block = block_cache().take(size);
    blocks_.emplace_back(block, size);
    next_size_ = std::min(size * 2, kMaxKeptBlock * 8);
    bump.cur = reinterpret_cast<uintptr_t>(block);
    bump.end = bump.cur + size;
    return bump.take(bytes, align);
  }

 private:
  void* do_allocate(size_t bytes, size_t align) override {
    if (void* p = bump.take(bytes, align)) return p;
    return grow(bytes, align);
  }
  void do_deallocate(void*, size_t, size_t) override {}
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }

  std::vector<std::pair<void*, size_t>> blocks_;
  size_t next_size_;
};

TreeSet::TreeSet() = default;
TreeSet::TreeSet(TreeSet&&) noexcept = default;
TreeSet& TreeSet::operator=(TreeSet&&) noexcept = default;
TreeSet::~TreeSet() = default;

Arena* TreeSet::arena() const { return arena_.get(); }
void* TreeSet::take_new_block(size_t bytes, size_t align) const {
  return arena_->grow(bytes, align);
}

void TreeSet::set_text(std::string text) {
  arena_ = std::make_unique<NodeArena>(text.size());
  bump_ = &arena_->bump;
  text_ = std::make_unique<std::string>(std::move(text));
  line_starts_.clear();
}

diag::Position TreeSet::position(size_t offset) const {
  const std::string_view t = text();
  if (line_starts_.empty()) {
    line_starts_.push_back(0);
    const char* begin = t.data();
    const char* end = begin + t.size();
    for (const char* p = begin; (p = static_cast<const char*>(std::memchr(p, '\n', end - p)));) {
      ++p;
      line_starts_.push_back(static_cast<size_t>(p - begin));
    }
  }
  offset = std::min(offset, t.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const size_t line = static_cast<size_t>(it - line_starts_.begin());
  const size_t start = line_starts_[line - 1];
  int column = 1;
  for (size_t i = start; i < offset; ++i) {
    if ((static_cast<unsigned char>(t[i]) & 0xC0) != 0x80) ++column;
  }
  return {static_cast<int>(line), column};
}

// The lexer's items kept between texts, at most (32 bytes each).
constexpr size_t kMaxKeptItems = 1 << 15;

diag::Result<TreeSet, ParseError> parse(std::string_view text, std::string_view name,
                                        const Options& options) {
  return parse_owned(std::string(text), name, options);
}

diag::Result<TreeSet, ParseError> parse_owned(std::string text, std::string_view name,
                                              const Options& options) {
  TreeSet set;
  set.main = std::string(name);
  set.set_text(std::move(text));
  LexOptions lo;
  lo.emit_comments = options.keep_comments;
  lo.break_ok = !has_function(options, "break");
  lo.continue_ok = !has_function(options, "continue");
  // The items of one text are dropped once it is parsed; their memory is kept for the next
  // text of this thread, unless it grew large.
  thread_local Lexed lexed;
  lexed.items.clear();
  lexed.message.clear();
  struct Trim {
    ~Trim() {
      if (lexed.items.capacity() > kMaxKeptItems) lexed.items = {};
    }
  } trim;
  lex(set.text(), lo, lexed);
  Parser parser(lexed, options, set);
  try {
    parser.parse_main(set.main);
  } catch (const Stop& stop) {
    ParseError e;
    e.message = stop.message;
    e.nesting_limit = stop.limit;
    e.offset = parser.error_offset(stop);
    e.at = set.position(e.offset);
    return e;
  }
  return set;
}

}  // namespace hintkit::gotmpl
