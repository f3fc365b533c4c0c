// The evaluated tree: nodes, copies from loaded YAML and back, keys and how ytt prints them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <unordered_set>

#include "diag/stack.h"
#include "gocompat/gocompat.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

DEntry* DNode::find(std::string_view key) {
  for (auto& e : entries)
    if (e.key.kind == yaml::Kind::kString && e.key.text == key) return &e;
  return nullptr;
}

const Ann* find_ann(const std::vector<Ann>& anns, std::string_view name) {
  const Ann* found = nullptr;
  for (const auto& a : anns)
    if (a.name == name) found = &a;  // the last one wins, as in ytt
  return found;
}

const Ann* DDoc::ann(std::string_view name) const { return find_ann(anns, name); }

static_assert(sizeof(void*) != 8 || sizeof(DNode) <= 112, "see the note on DNode's field order");

DPtr make_node(yaml::Kind kind, diag::Span span) {
  auto n = std::make_shared<DNode>();
  n->kind = kind;
  n->span = std::move(span);
  if (kind != yaml::Kind::kMap && kind != yaml::Kind::kArray) n->scalar.kind = kind;
  return n;
}

Scalar string_scalar(std::string_view text) {
  Scalar s;
  s.kind = yaml::Kind::kString;
  s.text = std::string(text);
  return s;
}

namespace {

// The fields a scalar's value has in both a loaded node and a `Scalar`, but its text.
template <class From, class To>
void copy_value_fields(const From& from, To& to) {
  to.kind = from.kind;
  to.style = from.style;
  to.bool_value = from.bool_value;
  to.is_unsigned = from.is_unsigned;
  to.int_value = from.int_value;
  to.float_value = from.float_value;
}

}  // namespace

// The value fields of a scalar (no span, tag or comments: the emitter and equality ignore them).
yaml::Node to_yaml(const Scalar& n) {
  yaml::Node s;
  copy_value_fields(n, s);
  s.text = n.text;  // JSON keys print their source text
  return s;
}

namespace {

// One walk for copying (`const yaml::Node&`) and consuming (`yaml::Node&&`) a loaded tree: a
// consumed node's strings are moved and each collection's memory is released once converted.
template <class NodeRef>
Scalar scalar_from(NodeRef&& n) {
  Scalar s;
  copy_value_fields(n, s);
  s.text = std::forward<NodeRef>(n).text;
  return s;
}

template <class NodeRef>
DPtr tree_from(NodeRef&& n) {
  constexpr bool kConsume = !std::is_const_v<std::remove_reference_t<NodeRef>>;
  auto pass = [](auto& child) -> decltype(auto) {
    if constexpr (kConsume) {
      return std::move(child);
    } else {
      return static_cast<const std::remove_reference_t<decltype(child)>&>(child);
    }
  };
  auto d = std::make_shared<DNode>();
  d->kind = n.kind;
  d->span = n.span;
  if (n.kind == yaml::Kind::kMap) {
    d->entries.reserve(n.items.size());
    for (auto& it : n.items) {
      DEntry e;
      e.span = it.key.span;
      if (!it.key.is_scalar()) {
        e.key.kind = it.key.kind;
        e.key_node = tree_from(pass(it.key));
      } else {
        e.key = scalar_from(pass(it.key));
      }
      e.value = tree_from(pass(it.value));
      d->entries.push_back(std::move(e));
    }
    if constexpr (kConsume) std::vector<yaml::MapItem>().swap(n.items);
  } else if (n.kind == yaml::Kind::kArray) {
    d->entries.reserve(n.elements.size());
    for (auto& el : n.elements) {
      DEntry e;
      e.span = item_span(el);
      e.value = tree_from(pass(el));
      d->entries.push_back(std::move(e));
    }
    if constexpr (kConsume) std::vector<yaml::Node>().swap(n.elements);
  } else {
    d->scalar = scalar_from(std::forward<NodeRef>(n));
  }
  return d;
}

}  // namespace

Scalar scalar_of(const yaml::Node& n) { return scalar_from(n); }
diag::Span item_span(const yaml::Node& element) {
  diag::Span s = element.span;
  if (element.item_line > 0) s.begin = {element.item_line, 1};
  return s;
}
Scalar take_scalar(yaml::Node&& n) { return scalar_from(std::move(n)); }
DPtr from_yaml(const yaml::Node& n) { return tree_from(n); }
DPtr from_yaml(yaml::Node&& n) { return tree_from(std::move(n)); }

DPtr deep_copy(const DNode& n) {
  auto d = std::make_shared<DNode>();
  d->kind = n.kind;
  d->span = n.span;
  d->scalar = n.scalar;
  d->from_code = n.from_code;
  d->entries.reserve(n.entries.size());
  for (const auto& e : n.entries) {
    DEntry c;
    c.key = e.key;
    c.key_node = e.key_node;  // keys are never changed in place
    c.value = e.value ? deep_copy(*e.value) : make_node(yaml::Kind::kNull);
    c.anns = e.anns;
    c.span = e.span;
    d->entries.push_back(std::move(c));
  }
  return d;
}

void make_yaml_nodes(DNode& root) {
  std::vector<DNode*> todo{&root};
  while (!todo.empty()) {  // iterative: values may nest 100,000 deep
    DNode* x = todo.back();
    todo.pop_back();
    x->from_code = false;
    for (auto& e : x->entries)
      if (e.value) todo.push_back(e.value.get());
  }
}

DPtr yaml_copy(const DNode& n) {
  DPtr d = deep_copy(n);
  make_yaml_nodes(*d);
  return d;
}

DPtr shallow_clone(const DNode& n) { return std::make_shared<DNode>(n); }

DNode& own(DPtr& slot) {
  if (slot.use_count() > 1) slot = shallow_clone(*slot);
  return *slot;
}

std::string_view checker_key(const Scalar& k, std::string& scratch) {
  if (k.kind == yaml::Kind::kString) return k.text;
  scratch.assign(1, '\x01');
  scratch += static_cast<char>('0' + static_cast<int>(k.kind));
  if (k.kind == yaml::Kind::kFloat) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", k.float_value);
    scratch += buf;
  } else {
    scratch += key_text(k);
  }
  return scratch;
}

yaml::Node to_yaml(const DNode& n) {
  if (n.is_scalar()) {
    yaml::Node s = to_yaml(n.scalar);
    s.kind = n.kind;
    return s;
  }
  yaml::Node out;
  out.kind = n.kind;
  if (n.is_map()) {
    out.items.reserve(n.entries.size());
    for (const auto& e : n.entries) {
      yaml::MapItem it;
      it.key = e.key_node ? to_yaml(*e.key_node) : to_yaml(e.key);
      it.value = to_yaml(*e.value);
      out.items.push_back(std::move(it));
    }
  } else {
    out.elements.reserve(n.entries.size());
    for (const auto& e : n.entries) out.elements.push_back(to_yaml(*e.value));
  }
  return out;
}

namespace {

void emit_tree(yaml::YamlEmitter& out, const DNode& n) {
  if (n.is_map() || n.is_array()) {
    n.is_map() ? out.begin_map(n.entries.size()) : out.begin_array(n.entries.size());
    for (const auto& e : n.entries) {
      if (n.is_map() && e.key_node) {
        emit_tree(out, *e.key_node);
      } else if (n.is_map()) {
        out.scalar(yaml::scalar_ref_of(e.key, e.key.kind));
      }
      emit_tree(out, *e.value);
    }
    n.is_map() ? out.end_map() : out.end_array();
    return;
  }
  out.scalar(yaml::scalar_ref_of(n.scalar, n.kind));
}

}  // namespace

std::string emit_yaml(const DNode& n) {
  yaml::YamlEmitter out;
  emit_tree(out, n);
  return out.finish();
}

bool same_key(const Scalar& a, const Scalar& b) {
  if (a.kind != b.kind) {
    return false;
  }
  switch (a.kind) {
    case yaml::Kind::kString:
      return a.text == b.text;
    case yaml::Kind::kInt:
      return a.int_value == b.int_value;
    case yaml::Kind::kBool:
      return a.bool_value == b.bool_value;
    case yaml::Kind::kFloat:
      return a.float_value == b.float_value;
    case yaml::Kind::kNull:
      return true;
    default:
      return false;
  }
}

std::string key_text(const Scalar& k) {
  switch (k.kind) {
    case yaml::Kind::kString:
      return k.text;
    case yaml::Kind::kInt:
      return k.is_unsigned ? std::to_string(static_cast<uint64_t>(k.int_value))
                           : std::to_string(k.int_value);
    case yaml::Kind::kBool:
      return k.bool_value ? "true" : "false";
    case yaml::Kind::kFloat:
      return gocompat::format_float(k.float_value, 'g');  // Go's %v: shortest, +Inf, NaN
    case yaml::Kind::kNull:
      return "<nil>";
    default:
      return k.text;
  }
}

std::string go_key_text(const Scalar& k) {
  switch (k.kind) {
    case yaml::Kind::kString:
      return k.text;
    case yaml::Kind::kInt:
      // go-yaml decodes an integer past int64's range as a uint64.
      return (k.is_unsigned ? "%!s(uint64="
              : k.from_code ? "%!s(int64="
                            : "%!s(int=") +
             key_text(k) + ")";
    case yaml::Kind::kBool:
      return "%!s(bool=" + key_text(k) + ")";
    case yaml::Kind::kFloat:
      return "%!s(float64=" + key_text(k) + ")";
    case yaml::Kind::kNull:
      return "%!s(<nil>)";
    default:
      return k.text;
  }
}

std::string_view ytt_type_name(yaml::Kind k) {
  switch (k) {
    case yaml::Kind::kNull:
      return "null";
    case yaml::Kind::kBool:
      return "boolean";
    case yaml::Kind::kInt:
      return "integer";
    case yaml::Kind::kFloat:
      return "float";
    case yaml::Kind::kString:
      return "string";
    case yaml::Kind::kMap:
      return "map";
    case yaml::Kind::kArray:
      return "array";
  }
  return "?";
}

std::string pos_text(const diag::Span& s) {
  if (s.begin.line <= 0) return s.file.empty() ? "?" : s.file + ":?";  // built by Starlark
  return s.file + ":" + std::to_string(s.begin.line);
}
}  // namespace hintkit::ytt
