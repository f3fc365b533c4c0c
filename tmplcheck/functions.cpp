// The function maps the templates are parsed with: text/template's builtins, sprig v3's
// TxtFuncMap (Masterminds/sprig functions.go), and what tazuna and helmfile change in it.
// Go checks every function name while parsing, so an unknown name is a parse error there and
// HK401 here.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gotmpl/gotmpl.h"
#include "tmplcheck/tmplcheck.h"

namespace hintkit::tmplcheck {
namespace {

// sprig v3 TxtFuncMap (genericMap), sorted.
constexpr std::string_view kSprig[] = {
    "abbrev",
    "abbrevboth",
    "add",
    "add1",
    "add1f",
    "addf",
    "adler32sum",
    "ago",
    "all",
    "any",
    "append",
    "atoi",
    "b32dec",
    "b32enc",
    "b64dec",
    "b64enc",
    "base",
    "bcrypt",
    "biggest",
    "buildCustomCert",
    "camelcase",
    "cat",
    "ceil",
    "chunk",
    "clean",
    "coalesce",
    "compact",
    "concat",
    "contains",
    "date",
    "dateInZone",
    "dateModify",
    "date_in_zone",
    "date_modify",
    "decryptAES",
    "deepCopy",
    "deepEqual",
    "default",
    "derivePassword",
    "dict",
    "dig",
    "dir",
    "div",
    "divf",
    "duration",
    "durationRound",
    "empty",
    "encryptAES",
    "env",
    "expandenv",
    "ext",
    "fail",
    "first",
    "float64",
    "floor",
    "fromJson",
    "genCA",
    "genCAWithKey",
    "genPrivateKey",
    "genSelfSignedCert",
    "genSelfSignedCertWithKey",
    "genSignedCert",
    "genSignedCertWithKey",
    "get",
    "getHostByName",
    "has",
    "hasKey",
    "hasPrefix",
    "hasSuffix",
    "hello",
    "htmlDate",
    "htmlDateInZone",
    "htpasswd",
    "indent",
    "initial",
    "initials",
    "int",
    "int64",
    "isAbs",
    "join",
    "kebabcase",
    "keys",
    "kindIs",
    "kindOf",
    "last",
    "list",
    "lower",
    "max",
    "maxf",
    "merge",
    "mergeOverwrite",
    "min",
    "minf",
    "mod",
    "mul",
    "mulf",
    "mustAppend",
    "mustChunk",
    "mustCompact",
    "mustDateModify",
    "mustDeepCopy",
    "mustFirst",
    "mustFromJson",
    "mustHas",
    "mustInitial",
    "mustLast",
    "mustMerge",
    "mustMergeOverwrite",
    "mustPrepend",
    "mustPush",
    "mustRegexFind",
    "mustRegexFindAll",
    "mustRegexMatch",
    "mustRegexReplaceAll",
    "mustRegexReplaceAllLiteral",
    "mustRegexSplit",
    "mustRest",
    "mustReverse",
    "mustSlice",
    "mustToDate",
    "mustToJson",
    "mustToPrettyJson",
    "mustToRawJson",
    "mustUniq",
    "mustWithout",
    "must_date_modify",
    "nindent",
    "nospace",
    "now",
    "omit",
    "osBase",
    "osClean",
    "osDir",
    "osExt",
    "osIsAbs",
    "pick",
    "pluck",
    "plural",
    "prepend",
    "push",
    "quote",
    "randAlpha",
    "randAlphaNum",
    "randAscii",
    "randBytes",
    "randInt",
    "randNumeric",
    "randSeededNumeric",
    "regexFind",
    "regexFindAll",
    "regexMatch",
    "regexQuoteMeta",
    "regexReplaceAll",
    "regexReplaceAllLiteral",
    "regexSplit",
    "repeat",
    "replace",
    "rest",
    "reverse",
    "round",
    "semver",
    "semverCompare",
    "seq",
    "set",
    "sha1sum",
    "sha256sum",
    "shuffle",
    "slice",
    "snakecase",
    "sortAlpha",
    "split",
    "splitList",
    "splitn",
    "squote",
    "sub",
    "subf",
    "substr",
    "swapcase",
    "ternary",
    "title",
    "toDate",
    "toDecimal",
    "toJson",
    "toPrettyJson",
    "toRawJson",
    "toString",
    "toStrings",
    "trim",
    "trimAll",
    "trimPrefix",
    "trimSuffix",
    "trimall",
    "trunc",
    "tuple",
    "typeIs",
    "typeIsLike",
    "typeOf",
    "uniq",
    "unixEpoch",
    "unset",
    "until",
    "untilStep",
    "untitle",
    "upper",
    "urlJoin",
    "urlParse",
    "uuidv4",
    "values",
    "without",
    "wrap",
    "wrapWith",
};

// tazuna's helmfileTemplateFuncs: sprig without env and expandenv (a template fetched from an
// ORAS artifact must not read the runner's environment), plus these.
constexpr std::string_view kTazunaRemoved[] = {"env", "expandenv"};
constexpr std::string_view kTazunaAdded[] = {"fromJson", "fromYaml", "toJson", "toYaml"};

// helmfile's pkg/tmpl createFuncMap (its `get` replaces sprig's, which stays as `sprigGet`).
constexpr std::string_view kHelmfileAdded[] = {
    "envExec",  "exec",        "expandSecretRefs", "fetchSecretValue", "fromYaml",       "get",
    "getOrNil", "isDir",       "isFile",           "readDir",          "readDirEntries", "readFile",
    "required", "requiredEnv", "setValueAtPath",   "sprigGet",         "toYaml",         "tpl",
};

template <size_t N>
bool in(const std::string_view (&table)[N], std::string_view name) {
  return std::find(std::begin(table), std::end(table), name) != std::end(table);
}

bool in_map(Flavor flavor, std::string_view name) {
  if (gotmpl::is_builtin(name)) return true;
  if (flavor == Flavor::kTazuna) {
    if (in(kTazunaRemoved, name)) return false;
    return in(kSprig, name) || in(kTazunaAdded, name);
  }
  return in(kSprig, name) || in(kTazunaAdded, name) || in(kHelmfileAdded, name);
}

// A set of names in one open-addressed table: the parser asks for every identifier of every
// template, and the node-based std::unordered_set's pointer chasing was a tenth of the check.
class NameSet {
 public:
  void insert(std::string_view name) {
    if (contains(name)) return;
    names_.push_back(name);
    if (names_.size() * 4 > slots_.size())
      rehash(std::max<size_t>(64, slots_.size() * 2));
    else
      place(name);
  }
  bool contains(std::string_view name) const {
    if (slots_.empty()) return false;
    for (size_t i = hash(name) & mask_;; i = (i + 1) & mask_) {
      const std::string_view s = slots_[i];
      if (s.data() == nullptr) return false;
      if (s == name) return true;
    }
  }
  template <typename F>
  void for_each(F f) const {
    for (std::string_view n : names_) f(n);
  }

 private:
  // FNV-1a: function names are short.
  static size_t hash(std::string_view s) {
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
  void place(std::string_view name) {
    size_t i = hash(name) & mask_;
    while (slots_[i].data() != nullptr) i = (i + 1) & mask_;
    slots_[i] = name;
  }
  void rehash(size_t size) {
    slots_.assign(size, std::string_view());
    mask_ = size - 1;
    for (std::string_view n : names_) place(n);
  }
  std::vector<std::string_view> names_;
  std::vector<std::string_view> slots_;  // a power of two, at most a quarter full
  size_t mask_ = 0;
};

const NameSet& function_set(Flavor flavor) {
  static const auto make = [](Flavor f) {
    NameSet set;
    auto add = [&](std::string_view n) {
      if (in_map(f, n)) set.insert(n);
    };
    for (std::string_view n :
         {"and", "call", "html", "index", "slice", "js", "len", "not", "or", "print", "printf",
          "println", "urlquery", "eq", "ge", "gt", "le", "lt", "ne"}) {
      add(n);
    }
    for (std::string_view n : kSprig) add(n);
    for (std::string_view n : kTazunaAdded) add(n);
    for (std::string_view n : kHelmfileAdded) add(n);
    return set;
  };
  static const NameSet tazuna = make(Flavor::kTazuna);
  static const NameSet any = make(Flavor::kAny);
  return flavor == Flavor::kTazuna ? tazuna : any;
}

}  // namespace

bool is_function(Flavor flavor, std::string_view name) {
  return function_set(flavor).contains(name);
}

std::vector<std::string> function_names(Flavor flavor) {
  std::vector<std::string> out;
  function_set(flavor).for_each([&](std::string_view n) { out.emplace_back(n); });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace hintkit::tmplcheck
