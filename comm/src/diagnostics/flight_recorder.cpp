#include "diagnostics/flight_recorder.hpp"

#include "ccl/call.hpp"
#include "groups/group_state.hpp"

namespace ccl::detail {

namespace {

std::string bytes_of(std::size_t elems, std::size_t elem) {
  return std::to_string(elems) + " x " + std::to_string(elem) + " B";
}

}  // namespace

std::string CollectiveRecord::describe() const {
  std::string s =
      std::string(name(kind)) + " on group '" + label.data() + "' (PGID " + pgid.str() + "), " +
      (is_persistent(instance) ? "persistent call " + std::to_string(number_of(instance))
                               : "instance " + std::to_string(instance));
  if (is_rooted(kind)) s += ", root " + std::to_string(root);
  if (kind == CollKind::shift) s += ", distance " + std::to_string(distance);
  if (kind != CollKind::sync) {
    s += ", send " + bytes_of(send_elems, elem) + ", recv " + bytes_of(recv_elems, elem);
  }
  return s;
}

void describe_call(CollectiveRecord& r, const GroupState& g, const Call& call,
                   std::uint64_t instance) {
  r.pgid = g.pgid;
  r.label = g.record_label;
  r.kind = call.kind;
  r.root = call.root;
  r.distance = call.distance;
  r.instance = instance;
  r.elem = call.elem;
  r.send_elems = call.send_elems;
  r.recv_elems = call.recv_elems;
}

}  // namespace ccl::detail
