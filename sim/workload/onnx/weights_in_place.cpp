// Reading an ONNX file without copying its weights (weights_in_place.hpp): the wire
// format of ModelProto.graph (field 7), GraphProto.initializer (field 5) and
// TensorProto.name / raw_data (fields 8 / 9), per onnx/onnx.proto.
#include "sim/workload/onnx/weights_in_place.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <optional>

#include "sim/base/error.hpp"
#include "sim/base/input_file.hpp"

namespace ridge::onnx_import {

[[noreturn]] void throw_unreadable(const std::string& file);

namespace {

// raw_data above this many bytes stays in the mapping (a few KB: the graph's small
// constants, whose values the translator reads, are far below it).
constexpr size_t kInPlaceBytes = 4096;

// Reads a wire-format message field by field; nullopt-like failure via ok = false.
struct Wire {
  std::string_view in;
  size_t at = 0;
  bool ok = true;

  bool done() const { return !ok || at >= in.size(); }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at >= in.size()) break;
      const auto byte = static_cast<uint8_t>(in[at++]);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return v;
    }
    ok = false;
    return 0;
  }
  // The field after a tag of this wire type: its bytes (the payload alone for a
  // length-delimited one), with `whole` the field's encoding from the tag on.
  std::string_view field(uint32_t wire_type, size_t tag_at, std::string_view& whole) {
    size_t from = at, size = 0;
    switch (wire_type) {
      case 0: varint(); size = 0; from = at; break;
      case 1: size = 8; break;
      case 5: size = 4; break;
      case 2: {
        const uint64_t n = varint();
        from = at;
        if (!ok || n > in.size() - at) ok = false;
        else size = static_cast<size_t>(n);
        break;
      }
      default: ok = false;  // groups (3, 4) and unknown types
    }
    if (!ok || size > in.size() - from) {
      ok = false;
      return {};
    }
    at = from + size;
    whole = in.substr(tag_at, at - tag_at);
    return in.substr(from, size);
  }
};

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Copies `message`, passing each field to `keep(field number, payload, whole, out)`,
// which appends what stays; false when the bytes are not a well-formed message.
template <class Keep>
bool filter(std::string_view message, std::string& out, Keep keep) {
  Wire w{message};
  while (!w.done()) {
    const size_t tag_at = w.at;
    const uint64_t tag = w.varint();
    std::string_view whole;
    std::string_view payload = w.field(static_cast<uint32_t>(tag & 7), tag_at, whole);
    if (!w.ok) return false;
    if (!keep(tag >> 3, tag & 7, payload, whole, out)) return false;
  }
  return w.ok;
}

// Appends a length-delimited field made of `content`.
void put_field(std::string& out, uint64_t number, const std::string& content) {
  put_varint(out, number << 3 | 2);
  put_varint(out, content.size());
  out += content;
}

bool tensor_without_raw(std::string_view tensor, std::string& out, std::map<std::string, std::string_view>& raw) {
  std::string name;
  std::optional<std::string_view> data;
  const bool ok = filter(tensor, out, [&](uint64_t number, uint64_t type, std::string_view payload, std::string_view whole,
                                          std::string& o) {
    if (number == 8 && type == 2) name = payload;
    if (number == 9 && type == 2 && payload.size() > kInPlaceBytes) data = payload;
    else o += whole;
    return true;
  });
  if (ok && data) raw[name] = *data;
  return ok;
}

std::optional<std::string> lean_model(std::string_view file, std::map<std::string, std::string_view>& raw) {
  std::string out;
  const bool ok = filter(file, out, [&](uint64_t number, uint64_t type, std::string_view graph, std::string_view whole,
                                        std::string& o) {
    if (number != 7 || type != 2) return o += whole, true;
    std::string lean_graph;
    const bool graph_ok = filter(graph, lean_graph, [&](uint64_t n, uint64_t t, std::string_view tensor,
                                                        std::string_view w, std::string& g) {
      if (n != 5 || t != 2) return g += w, true;
      std::string lean_tensor;
      if (!tensor_without_raw(tensor, lean_tensor, raw)) return false;
      put_field(g, 5, lean_tensor);
      return true;
    });
    if (graph_ok) put_field(o, 7, lean_graph);
    return graph_ok;
  });
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace

bool parse_in_place(std::string_view bytes, OnnxFile& f) {
  std::optional<std::string> lean = lean_model(bytes, f.raw);
  if (lean && f.model.ParseFromString(*lean)) return true;
  f.raw.clear();
  f.model.Clear();
  return false;
}

OnnxFile read_onnx_in_place(const std::string& path) {
  OnnxFile f;
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw InputError({path}, "cannot read the ONNX file", "check the path");
  note_input_file(path);  // an --output naming it is refused
  struct stat st {};
  void* map = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) map = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map != MAP_FAILED) {
    const auto size = static_cast<size_t>(st.st_size);
    f.mapping = std::shared_ptr<const void>(map, [size](const void* p) { ::munmap(const_cast<void*>(p), size); });
    if (parse_in_place({static_cast<const char*>(map), size}, f)) return f;
  }
  // Not mapped or not as expected: the whole file, parsed as protobuf reads it.
  std::ifstream in(path, std::ios::binary);
  if (!in || !f.model.ParseFromIstream(&in)) throw_unreadable(path);
  return f;
}

}  // namespace ridge::onnx_import
