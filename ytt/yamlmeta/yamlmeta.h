// yamlmeta: the evaluated YAML tree every other part of the ytt half works on (ytt's
// pkg/yamlmeta). Start at `DNode` (a scalar, map or array; trees are shared copy-on-write,
// see `own()`) and `DDoc` (a document with its annotations); `Ann` is an evaluated `#@name args`
// annotation. Also here, because every module below the command raises them: `YttError` (a
// failure that stops the run) and `Unsupported` (a refusal), the places of values built in
// memory, and go-yaml's wording of YAML errors.
// node.cpp: the tree; positions.cpp: memory places; go_text.cpp: go-yaml's error texts.
#pragma once

#include <functional>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diag/diag.h"
#include "starlark/starlark.h"
#include "yaml/yaml.h"

namespace hintkit::ytt {

namespace sl = hintkit::starlark;

// A place an error names: the input file's name as ytt's texts give it (an `-f` file's base
// name, a file of an `-f` folder by its path inside that folder) and the 1-based line.
// Unknown parts are empty / 0 (a value from a flag, from library.with_data_values).
struct ErrorPlace {
  std::string file;
  int line = 0;
};

// One problem of a failed run at its own place, for hosts that show problems where they are
// (the language server). Filled for the errors whose parts the engine holds: type errors of
// data values and of schemas (one per block of ytt's error) and validation failures (one per
// failing value); for any other error `Outcome::problems` is empty and `err` is all there is.
struct Problem {
  ErrorPlace place;
  std::string message;  // one line
  // Other places the error names, each with what it is (`type declared here`).
  std::vector<std::pair<ErrorPlace, std::string>> related = {};
};

// A failure that stops the run. Errors gain context as ytt's do (`fmt.Errorf("context: %s",
// err)` at each level it passes through) in one place, `with_context`: the context is kept as
// data, innermost first, and `message()` renders it once, when the error is printed or nested.
struct YttError {
  std::string text;  // the error's own text, without the context it gained
  int exit_code = 1;  // 2: something hintkit does not do (the text names it and says to use ytt)
  // The error's own message as ytt's err.Error() gives it, before any layout, when an
  // enclosing error quotes it (a schema error under @schema/nullable); empty: `text`.
  std::string raw = {};
  // The same error cut into problems at their places (Outcome::problems), when it has parts.
  std::vector<Problem> problems = {};
  // Context the error gained on its way out, innermost first: each goes before what is inside
  // it, as ytt's fmt.Errorf("...: %s", err) wraps an error.
  std::vector<std::string> frames = {};
  // Everything after "Error: " before go-cli-ui's layout (multi_line_error): the context,
  // outermost first, then the text. ytt's main prints a line break after it; a message that
  // ends in one of its own has it once more here, so that printing adds none.
  std::string message() const;
  // ytt's err.Error() of this error: the message without the line break ytt's main adds (what
  // --bulk-out reports).
  std::string error_text() const;
};

// Runs `body`; a YttError it throws gains `context` before its message (see YttError).
template <class Body>
auto with_context(std::string_view context, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (YttError& e) {
    e.frames.push_back(std::string(context));
    throw;
  }
}

// Something of ytt's that hintkit does not do (library modules, text templates, ...): the run
// stops with exit 2 and an error naming `feature`, never with output that differs from ytt's.
struct Unsupported {
  std::string feature;
};

// An evaluated `#@name args` annotation.
struct Ann {
  std::string name;
  std::vector<sl::Value> args;
  std::vector<std::pair<std::string, sl::Value>> kwargs;
  diag::Span span;
  const sl::Value* kwarg(std::string_view k) const {
    for (const auto& [n, v] : kwargs)
      if (n == k) return &v;
    return nullptr;
  }
};

// The value of a scalar node or map key: what the engine needs of a loaded `yaml::Node`
// (56 bytes against its 232: no tag, comments, span or children; the tree node has the span).
struct Scalar {
  yaml::Kind kind = yaml::Kind::kNull;
  yaml::Style style = yaml::Style::kPlain;
  bool bool_value = false;
  bool is_unsigned = false;  // as in yaml::Node
  bool from_code = false;    // a key made by Starlark code: Go holds its int as an int64
  int64_t int_value = 0;
  double float_value = 0.0;
  std::string text;  // kString: the decoded string; other kinds: the source text
};
Scalar scalar_of(const yaml::Node& n);
// Where an array item is, as ytt places it: the line of its `-` (which may stand above the
// element's first token).
diag::Span item_span(const yaml::Node& element);
Scalar string_scalar(std::string_view s);
yaml::Node to_yaml(const Scalar& s);

struct DNode;
using DPtr = std::shared_ptr<DNode>;

// A DPtr that costs one pointer while it is null (a map item's collection key is rare).
class SparseDPtr {
 public:
  SparseDPtr() = default;
  SparseDPtr(std::nullptr_t) {}  // NOLINT: implicit, as the DPtr it stands for
  SparseDPtr(DPtr p)             // NOLINT
      : p_(p ? std::make_unique<DPtr>(std::move(p)) : nullptr) {}
  SparseDPtr(const SparseDPtr& o) : SparseDPtr(o.get()) {}
  SparseDPtr(SparseDPtr&&) noexcept = default;
  SparseDPtr& operator=(const SparseDPtr& o) {
    if (this != &o) *this = SparseDPtr(o.get());
    return *this;
  }
  SparseDPtr& operator=(SparseDPtr&&) noexcept = default;

  explicit operator bool() const { return p_ != nullptr; }
  DNode& operator*() const { return **p_; }
  DNode* operator->() const { return p_->get(); }
  DPtr get() const { return p_ ? *p_ : nullptr; }

 private:
  std::unique_ptr<DPtr> p_;
};

// A map item or an array item.
struct DEntry {
  Scalar key;  // map items: a scalar key (for a collection key, its kind only)
  DPtr value;
  SparseDPtr key_node;  // map items keyed by a map or array (`{{ x }}: v` in a helmfile template)
  yaml::SparseVector<Ann> anns;  // most items have none
  diag::Span span;               // the item's line
};

// A value: a scalar (kind + fields of `scalar`), a map or an array.
// Field order keeps the node at 112 bytes, 128 with its shared_ptr count: the allocator's
// next size class up is 160, a quarter more for each of a large tree's many nodes.
struct DNode {
  yaml::Kind kind = yaml::Kind::kNull;
  // A map or array made from a Starlark dict, struct, list or tuple (not from YAML nodes):
  // ytt keeps such a value as Go data, so a fragment hands it back as a dict or list.
  bool from_code = false;
  // ytt shares a fragment's node wherever the fragment is put (`a: #@ x`, `b: #@ x`), so an
  // overlay that edits one place edits them all. Here such a node is shared too; `placed`:
  // put in a template node once; `aliased`: more than once (or also inside another fragment),
  // so overlays edit it in place as ytt does, where other shared nodes are copied first
  // (copy-on-write).
  bool placed = false;
  bool aliased = false;
  // Handed out as a fragment of its own by indexing a fragment (`x["b"]`): it is also inside
  // that fragment's tree, so placing it makes it `aliased`.
  bool viewed = false;
  Scalar scalar;  // scalars only
  std::vector<DEntry> entries;
  diag::Span span;

  bool is_map() const { return kind == yaml::Kind::kMap; }
  bool is_array() const { return kind == yaml::Kind::kArray; }
  bool is_scalar() const { return !is_map() && !is_array(); }
  bool is_null() const { return kind == yaml::Kind::kNull; }
  DEntry* find(std::string_view key);
};

struct DDoc {
  DPtr value;
  std::vector<Ann> anns;
  diag::Span span;
  std::string file;
  bool implicit = false;  // no `---` before it
  // The value was set from Starlark data (a dict or list, not YAML nodes): ytt never counts
  // such a document as empty.
  bool computed = false;
  const Ann* ann(std::string_view name) const;
};

const Ann* find_ann(const std::vector<Ann>& anns, std::string_view name);

// Trees are shared, copy-on-write: a subtree may hang under several parents (a type's default,
// a data values document and the merged values), so code that changes a node first makes its
// slot its own with `own()`, top-down from a slot it owns. Nothing else mutates shared nodes.
DPtr make_node(yaml::Kind kind, diag::Span span = {});
DPtr from_yaml(const yaml::Node& n);  // deep copy of a loaded node (annotations dropped)
// The same, consuming `n`: strings are moved and each collection's memory is released as soon
// as it is converted, so a large file's two trees never exist whole at the same time.
DPtr from_yaml(yaml::Node&& n);
Scalar take_scalar(yaml::Node&& n);
DPtr deep_copy(const DNode& n);
// A deep copy read back as YAML nodes (ytt's overlay results): nothing in it is `from_code`.
DPtr yaml_copy(const DNode& n);
// The same in place: nothing in the tree is `from_code` any more.
void make_yaml_nodes(DNode& root);
DPtr shallow_clone(const DNode& n);  // the node and its entries; children stay shared
DNode& own(DPtr& slot);              // clones `*slot` first when someone else holds it
// How a key is spelled for field lookups (`SType::field_index`): string keys as they are,
// other scalars tagged by kind (so `8080` and "8080" stay apart). `scratch` holds non-string
// spellings.
std::string_view checker_key(const Scalar& k, std::string& scratch);
yaml::Node to_yaml(const DNode& n);
// `yaml::emit_yaml(to_yaml(n))` without building the copy.
std::string emit_yaml(const DNode& n);
bool same_key(const Scalar& a, const Scalar& b);
std::string key_text(const Scalar& k);         // how ytt prints a key in messages
std::string go_key_text(const Scalar& k);      // `%s` of a key: %!s(int=8080) for ints
std::string_view ytt_type_name(yaml::Kind k);  // "integer", "string", "boolean", ...

std::string pos_text(const diag::Span& s);  // "schema.yaml:4"

// ytt's `-o pos` output of documents (yamlmeta.FilePositionPrinter, one for the whole set).
// `place` spells a known position as ytt's AsCompactString does ("values.yml:3",
// "(data-value arg):1").
using PlaceName = std::function<std::string(const diag::Span&)>;
std::string print_positions(const std::vector<const DDoc*>& docs, const PlaceName& place);

// Positions of values built in memory (`library.with_data_values(dict)`): unknown to ytt
// ("?"), but its error excerpts quote them as "Data value calculated:" with the item's line as
// Go's fmt prints it (`key: "value"`, `- 1`). Such a span has no file and line 0 (so every
// other use sees an unknown place); its column numbers the remembered line.
diag::Span memory_span(std::string line);
// A memory span whose line ytt would print as a Go pointer (`&yamlmeta.Map{...}`): a map or
// array value. No one can reproduce it, so an error that quotes it is refused.
diag::Span unprintable_memory_span();
// Where ytt holds a node with no position at all (a map a data value flag builds for its key
// path): an error that needs its place makes ytt crash, so hintkit refuses it.
diag::Span no_position_span();
bool is_no_position(const diag::Span& s);
// The line of a memory span; null for any other span (and for an unprintable one).
const std::string* memory_line(const diag::Span& s);
bool is_unprintable_memory(const diag::Span& s);

// How go-yaml v2 (as vendored by ytt v0.48.0) words a YAML error that our loader reported as
// `d`: "yaml: line 2: did not find expected key". Errors of the loader go by their
// kind (`yaml::ErrorKind`, worded by `yaml::go_yaml_message`); limits keep our words.
// `through_ytt_parser`: files and flag values go through ytt's own parser, whose line fix-up
// cuts "did not find expected ',' or '}'" to "did not find expected ',' or '"; yaml.decode
// gets go-yaml's text unchanged. A line break go-yaml has and we do not (NEL, LS, PS) throws
// `Unsupported`.
std::string go_yaml_error(const diag::Diagnostic& d, bool through_ytt_parser);

// go-cli-ui's MultiLineError: the first line of `text` broken after each ": " that starts a
// capitalised clause (outside brackets), each piece indented one step further.
std::string multi_line_error(std::string_view text);

}  // namespace hintkit::ytt
