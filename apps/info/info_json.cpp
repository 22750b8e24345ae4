// loom-info --json: everything the runtime found, as one JSON object for scripts and CI.
#include "info.hpp"

namespace loom::apps {

namespace {

const char* notice_kind(SearchNotice::Kind k) {
  switch (k) {
    case SearchNotice::Kind::missing_entry:
      return "missing_entry";
    case SearchNotice::Kind::unreadable_entry:
      return "unreadable_entry";
    case SearchNotice::Kind::not_a_folder:
      return "not_a_folder";
    case SearchNotice::Kind::misnamed_library:
      return "misnamed_library";
  }
  return "?";
}

nlohmann::ordered_json kernel_json(const Runtime& rt, const KernelDesc& k) {
  nlohmann::ordered_json overloads = nlohmann::ordered_json::array();
  for (const auto& o : k.overloads) overloads.push_back(k.name + o.signature());
  nlohmann::ordered_json families = nlohmann::ordered_json::array();
  for (Family f : {Family::host, Family::cuda}) {
    if (k.has_family(f)) families.push_back(name(f));
  }
  bool sync = false;
  for (const auto& o : k.overloads) sync = sync || o.uses_syncthreads;
  return {{"name", k.name},
          {"signatures", overloads},
          {"uses_syncthreads", sync},
          {"doc", k.doc},
          {"plugins", k.plugins},
          {"families", families},
          {"targets", kernel_targets(rt, k)}};
}

nlohmann::ordered_json op_json(const Runtime& rt, const OpDesc& op) {
  nlohmann::ordered_json sigs = nlohmann::ordered_json::array();
  nlohmann::ordered_json families = nlohmann::ordered_json::array();
  for (const auto& loop : op.loops) sigs.push_back(loop.sig.str());
  for (Family f : {Family::host, Family::cuda}) {
    if (op.has_family(f)) families.push_back(name(f));
  }
  nlohmann::ordered_json j = {
      {"name", op.name},
      {"kind", name(op.kind)},
      {"nin", op.nin},
      {"nout", op.nout},
      {"layout",
       op.layout ? nlohmann::ordered_json(op.layout->str()) : nlohmann::ordered_json(nullptr)},
      {"identity",
       op.identity ? nlohmann::ordered_json(*op.identity) : nlohmann::ordered_json(nullptr)},
      {"reorderable", op.reorderable},
      {"signatures", sigs},
      {"doc", op.doc},
      {"plugins", op.plugins},
      {"families", families},
      {"targets", op_targets(rt, op)},
      {"hand_written", hand_written_loops(op)},
  };
  return j;
}

}  // namespace

nlohmann::ordered_json info_json(const Runtime& rt) {
  nlohmann::ordered_json libs = nlohmann::ordered_json::array();
  for (const auto& l : rt.libraries()) {
    libs.push_back(
        {{"name", l.name},
         {"path", l.path},
         {"family", l.ok ? nlohmann::ordered_json(name(l.family)) : nullptr},
         {"ok", l.ok},
         {"error", l.ok ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(l.error)},
         {"program", l.program}});
  }
  nlohmann::ordered_json notices = nlohmann::ordered_json::array();
  for (const auto& n : rt.search_notices()) {
    notices.push_back({{"kind", notice_kind(n.kind)}, {"path", n.path}, {"message", n.message}});
  }
  nlohmann::ordered_json targets = nlohmann::ordered_json::array();
  for (const auto& t : rt.targets()) {
    targets.push_back({{"target", t.target},
                       {"backend", t.backend},
                       {"available", t.available},
                       {"reason", t.reason},
                       {"details", t.details}});
  }
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (const auto& op : rt.registry().list()) ops.push_back(op_json(rt, *op));
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const auto& k : rt.registry().list_kernels()) kernels.push_back(kernel_json(rt, *k));
  return {{"search_path", rt.search_path()},
          {"search_notices", notices},
          {"default_target", rt.default_target()},
          {"libraries", libs},
          {"targets", targets},
          {"ops", ops},
          {"kernels", kernels}};
}

}  // namespace loom::apps
