// Go's Node.String() (node.go's writeTo methods) and a generic walk over the tree.
#include "gocompat/gocompat.h"
#include "gotmpl/gotmpl.h"
#include "gotmpl/lex.h"

namespace hintkit::gotmpl {
namespace {

void write(std::string& out, const Node& n, bool quote_text);

void write_pipe(std::string& out, const PipeNode& p, bool quote_text) {
  for (size_t i = 0; i < p.decl.size(); ++i) {
    if (i > 0) out += ", ";
    write(out, *p.decl[i], quote_text);
  }
  if (!p.decl.empty()) out += " := ";  // Go prints ":=" for assignments too
  for (size_t i = 0; i < p.cmds.size(); ++i) {
    if (i > 0) out += " | ";
    write(out, *p.cmds[i], quote_text);
  }
}

void write(std::string& out, const Node& n, bool quote_text) {
  switch (n.type) {
    case NodeType::kText: {
      const auto& t = static_cast<const TextNode&>(n);
      if (quote_text) {
        out += gocompat::quote(t.text);
      } else {
        out += t.text;
      }
      return;
    }
    case NodeType::kComment:
      out += "{{";
      out += static_cast<const CommentNode&>(n).text;
      out += "}}";
      return;
    case NodeType::kList:
      for (const NodePtr& c : static_cast<const ListNode&>(n).nodes) write(out, *c, quote_text);
      return;
    case NodeType::kAction:
      out += "{{";
      write_pipe(out, *static_cast<const ActionNode&>(n).pipe, quote_text);
      out += "}}";
      return;
    case NodeType::kPipe:
      write_pipe(out, static_cast<const PipeNode&>(n), quote_text);
      return;
    case NodeType::kCommand: {
      const auto& c = static_cast<const CommandNode&>(n);
      for (size_t i = 0; i < c.args.size(); ++i) {
        if (i > 0) out += ' ';
        if (c.args[i]->type == NodeType::kPipe) {
          out += '(';
          write(out, *c.args[i], quote_text);
          out += ')';
        } else {
          write(out, *c.args[i], quote_text);
        }
      }
      return;
    }
    case NodeType::kIdentifier:
      out += static_cast<const IdentifierNode&>(n).ident;
      return;
    case NodeType::kVariable: {
      const auto& v = static_cast<const VariableNode&>(n);
      for (size_t i = 0; i < v.ident.size(); ++i) {
        if (i > 0) out += '.';
        out += v.ident[i];
      }
      return;
    }
    case NodeType::kField:
      for (std::string_view f : static_cast<const FieldNode&>(n).ident) {
        out += '.';
        out += f;
      }
      return;
    case NodeType::kChain: {
      const auto& c = static_cast<const ChainNode&>(n);
      if (c.node->type == NodeType::kPipe) {
        out += '(';
        write(out, *c.node, quote_text);
        out += ')';
      } else {
        write(out, *c.node, quote_text);
      }
      for (std::string_view f : c.field) {
        out += '.';
        out += f;
      }
      return;
    }
    case NodeType::kDot:
      out += '.';
      return;
    case NodeType::kNil:
      out += "nil";
      return;
    case NodeType::kBool:
      out += static_cast<const BoolNode&>(n).value ? "true" : "false";
      return;
    case NodeType::kNumber:
      out += static_cast<const NumberNode&>(n).text;
      return;
    case NodeType::kString:
      out += static_cast<const StringNode&>(n).quoted;
      return;
    case NodeType::kIf:
    case NodeType::kRange:
    case NodeType::kWith: {
      const auto& b = static_cast<const BranchNode&>(n);
      out += "{{" + std::string(to_string(n.type)) + " ";
      write_pipe(out, *b.pipe, quote_text);
      out += "}}";
      write(out, *b.list, quote_text);
      if (b.else_list) {
        out += "{{else}}";
        write(out, *b.else_list, quote_text);
      }
      out += "{{end}}";
      return;
    }
    case NodeType::kTemplate: {
      const auto& t = static_cast<const TemplateNode&>(n);
      out += "{{template " + gocompat::quote(t.name);
      if (t.pipe) {
        out += ' ';
        write_pipe(out, *t.pipe, quote_text);
      }
      out += "}}";
      return;
    }
    case NodeType::kBreak:
      out += "{{break}}";
      return;
    case NodeType::kContinue:
      out += "{{continue}}";
      return;
  }
}

}  // namespace

std::string_view to_string(NodeType t) {
  switch (t) {
    case NodeType::kText:
      return "text";
    case NodeType::kAction:
      return "action";
    case NodeType::kBool:
      return "bool";
    case NodeType::kChain:
      return "chain";
    case NodeType::kCommand:
      return "command";
    case NodeType::kDot:
      return "dot";
    case NodeType::kField:
      return "field";
    case NodeType::kIdentifier:
      return "identifier";
    case NodeType::kIf:
      return "if";
    case NodeType::kList:
      return "list";
    case NodeType::kNil:
      return "nil";
    case NodeType::kNumber:
      return "number";
    case NodeType::kPipe:
      return "pipe";
    case NodeType::kRange:
      return "range";
    case NodeType::kString:
      return "string";
    case NodeType::kTemplate:
      return "template";
    case NodeType::kVariable:
      return "variable";
    case NodeType::kWith:
      return "with";
    case NodeType::kComment:
      return "comment";
    case NodeType::kBreak:
      return "break";
    case NodeType::kContinue:
      return "continue";
  }
  return "node";
}

std::string to_string(const Node& node, bool quote_text) {
  std::string out;
  write(out, node, quote_text);
  return out;
}

void walk(const Node& n, const std::function<bool(const Node&)>& visit) {
  if (!visit(n)) return;
  switch (n.type) {
    case NodeType::kList:
      for (const NodePtr& c : static_cast<const ListNode&>(n).nodes) walk(*c, visit);
      return;
    case NodeType::kAction:
      walk(*static_cast<const ActionNode&>(n).pipe, visit);
      return;
    case NodeType::kPipe: {
      const auto& p = static_cast<const PipeNode&>(n);
      for (const auto& d : p.decl) walk(*d, visit);
      for (const auto& c : p.cmds) walk(*c, visit);
      return;
    }
    case NodeType::kCommand:
      for (const NodePtr& a : static_cast<const CommandNode&>(n).args) walk(*a, visit);
      return;
    case NodeType::kChain:
      walk(*static_cast<const ChainNode&>(n).node, visit);
      return;
    case NodeType::kIf:
    case NodeType::kRange:
    case NodeType::kWith: {
      const auto& b = static_cast<const BranchNode&>(n);
      walk(*b.pipe, visit);
      walk(*b.list, visit);
      if (b.else_list) walk(*b.else_list, visit);
      return;
    }
    case NodeType::kTemplate: {
      const auto& t = static_cast<const TemplateNode&>(n);
      if (t.pipe) walk(*t.pipe, visit);
      return;
    }
    default:
      return;
  }
}

}  // namespace hintkit::gotmpl
