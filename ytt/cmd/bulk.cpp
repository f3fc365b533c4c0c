// ytt's BulkFilesSource (pkg/cmd/template/bulk_input.go): `--bulk-in JSON` hands the files in
// one JSON text instead of -f, `--bulk-out` prints the run's output files, or its error, as one
// JSON text (exit 0 either way).
//
// The input is read as Go's json.Unmarshal stores a text into ytt's
//   type BulkFiles struct { Files []BulkFile `json:"files,omitempty"`; Errors string ... }
//   type BulkFile struct { Name string `json:"name"`; Data string `json:"data"` }
// (decode.go): a key names a field exactly or, failing that, with case folded as
// bytes.EqualFold folds it; other keys are skipped; null leaves a field as it is (a slice
// emptied); a value of the wrong kind is an UnmarshalTypeError, the first of which is returned
// once the whole text is stored.
#include "gocompat/gocompat.h"
#include "diag/diag.h"
#include "ytt/cmd/cmd.h"
#include "ytt/files/files.h"

namespace hintkit::ytt {
namespace {

using gocompat::JsonValue;

struct BulkFile {
  std::string name;
  std::string data;
};

// bytes.EqualFold(field, key) for an ASCII field name: a letter matches either case, and
// `k` and `s` also the Kelvin sign (U+212A) and the long s (U+017F) that fold to them.
bool folds_to(std::string_view field, std::string_view key) {
  size_t i = 0;
  for (char f : field) {
    if (i >= key.size()) return false;
    const char lower = (f >= 'A' && f <= 'Z') ? static_cast<char>(f + 32) : f;
    const char c = key[i];
    if (c == f || ((lower >= 'a' && lower <= 'z') && (c == lower || c == lower - 32))) {
      ++i;
    } else if (lower == 'k' && key.substr(i, 3) == "\xE2\x84\xAA") {
      i += 3;
    } else if (lower == 's' && key.substr(i, 2) == "\xC5\xBF") {
      i += 2;
    } else {
      return false;
    }
  }
  return i == key.size();
}

// The field of `fields` a key stores into (decode.go's object): its exact name, else the first
// that folds to it; -1 for none.
int field_for(std::string_view key, std::initializer_list<std::string_view> fields) {
  int index = 0;
  for (std::string_view f : fields) {
    if (f == key) return index;
    ++index;
  }
  index = 0;
  for (std::string_view f : fields) {
    if (folds_to(f, key)) return index;
    ++index;
  }
  return -1;
}

class BulkDecoder {
 public:
  std::vector<BulkFile> files;
  std::string first_error;

  void bulk_files(const JsonValue& v) {
    if (v.kind != JsonValue::Kind::kObject) {
      if (v.kind != JsonValue::Kind::kNull) type_error(v, "template.BulkFiles", "", "");
      return;
    }
    for (const auto& [key, member] : v.members) {
      switch (field_for(key, {"files", "errors"})) {
        case 0:
          file_list(member);
          break;
        case 1:
          string_field(member, "BulkFiles", "errors", errors_);
          break;
        default:
          break;
      }
    }
  }

 private:
  // decode.go's UnmarshalTypeError with the field it was storing (Struct.Field, the path of
  // field names from the top).
  void type_error(const JsonValue& v, std::string_view type, std::string_view in_struct,
                  std::string_view field) {
    if (!first_error.empty()) return;
    static constexpr std::string_view kKinds[] = {"null",   "bool",  "number",
                                                  "string", "array", "object"};
    first_error = "json: cannot unmarshal " + std::string(kKinds[static_cast<int>(v.kind)]) +
                  " into Go " +
                  (in_struct.empty()
                       ? std::string("value")
                       : "struct field " + std::string(in_struct) + "." + std::string(field)) +
                  " of type " + std::string(type);
  }

  void file_list(const JsonValue& v) {
    if (v.kind == JsonValue::Kind::kNull) {
      files.clear();
      return;
    }
    if (v.kind != JsonValue::Kind::kArray) {
      type_error(v, "[]template.BulkFile", "BulkFiles", "files");
      return;
    }
    // A repeated key stores into the elements already there, then cuts the slice.
    if (files.size() < v.elements.size()) files.resize(v.elements.size());
    for (size_t i = 0; i < v.elements.size(); ++i) file(v.elements[i], files[i]);
    files.resize(v.elements.size());
  }

  void file(const JsonValue& v, BulkFile& into) {
    if (v.kind != JsonValue::Kind::kObject) {
      if (v.kind != JsonValue::Kind::kNull) {
        type_error(v, "template.BulkFile", "BulkFiles", "files");
      }
      return;
    }
    for (const auto& [key, member] : v.members) {
      switch (field_for(key, {"name", "data"})) {
        case 0:
          string_field(member, "BulkFile", "files.name", into.name);
          break;
        case 1:
          string_field(member, "BulkFile", "files.data", into.data);
          break;
        default:
          break;
      }
    }
  }

  void string_field(const JsonValue& v, std::string_view in_struct, std::string_view field,
                    std::string& into) {
    if (v.kind == JsonValue::Kind::kString) {
      into = v.text;
    } else if (v.kind != JsonValue::Kind::kNull) {
      type_error(v, "string", in_struct, field);
    }
  }

  std::string errors_;  // BulkFiles.Errors: read, and unused by the input
};

}  // namespace

std::vector<SourceFile> read_bulk_input(std::string_view json) {
  gocompat::JsonParse parsed = gocompat::parse_json(json);
  if (!parsed.error.empty()) throw YttError{parsed.error};
  BulkDecoder decoder;
  decoder.bulk_files(parsed.value);
  if (!decoder.first_error.empty()) throw YttError{decoder.first_error};
  std::vector<SourceFile> out;
  out.reserve(decoder.files.size());
  for (BulkFile& f : decoder.files) {
    SourceFile file;
    file.path = std::move(f.name);
    file.lines = SourceLines(std::move(f.data));
    file.in_file_set = true;
    out.push_back(std::move(file));
  }
  return out;
}

std::string bulk_output(const std::vector<OutputFile>& files, std::string_view error) {
  // json.Marshal of BulkFiles: both fields omitted when empty.
  std::string out = "{";
  if (!files.empty()) {
    out += "\"files\":[";
    for (size_t i = 0; i < files.size(); ++i) {
      if (i > 0) out += ',';
      out += "{\"name\":";
      diag::append_json_string(out, files[i].first);
      out += ",\"data\":";
      diag::append_json_string(out, files[i].second);
      out += '}';
    }
    out += ']';
  }
  if (!error.empty()) {
    if (!files.empty()) out += ',';
    out += "\"errors\":";
    diag::append_json_string(out, error);
  }
  out += '}';
  return out;
}

}  // namespace hintkit::ytt
