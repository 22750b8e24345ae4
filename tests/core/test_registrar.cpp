// Registrar rules for hand-written loops (replace_loop) and kernels, without loading a plugin.
#include <gtest/gtest.h>

#include "loom/error.hpp"
#include "loom/registry.hpp"

namespace loom {
namespace {

void generic(char**, const std::int64_t*, const std::int64_t*, const void*) {}
void fast(char**, const std::int64_t*, const std::int64_t*, const void*) {}

OpDesc one_loop_op() {
  OpDesc d;
  d.name = "twice";
  d.nin = 1;
  d.nout = 1;
  Loop l;
  l.sig = Signature::parse("float32(float32)");
  l.impl[static_cast<int>(Family::host)].host = &generic;
  d.loops.push_back(l);
  return d;
}

TEST(Registrar, ReplaceLoopSwapsTheGenericLoopOfOneSignature) {
  Registrar reg(Family::host);
  reg.add(one_loop_op());
  LoopImpl hand;
  hand.host = &fast;
  hand.hand_written = "an unrolled loop";
  reg.replace_loop("twice", "float32(float32)", hand);
  const LoopImpl& now = reg.staged()[0].loops[0].impl[static_cast<int>(Family::host)];
  EXPECT_EQ(now.host, &fast);
  EXPECT_STREQ(now.hand_written, "an unrolled loop");
}

TEST(Registrar, ReplaceLoopRefusesUnknownOpsSignaturesAndUnlabelledLoops) {
  Registrar reg(Family::host);
  reg.add(one_loop_op());
  LoopImpl hand;
  hand.host = &fast;
  hand.hand_written = "x";
  EXPECT_THROW(reg.replace_loop("thrice", "float32(float32)", hand), PluginError);
  try {
    reg.replace_loop("twice", "float64(float64)", hand);
    FAIL() << "no error";
  } catch (const PluginError& e) {
    EXPECT_NE(std::string(e.what()).find("float32(float32)"), std::string::npos) << e.what();
  }
  LoopImpl unlabelled;
  unlabelled.host = &fast;
  EXPECT_THROW(reg.replace_loop("twice", "float32(float32)", unlabelled), PluginError);
  LoopImpl wrong_kind;
  wrong_kind.device_elementwise = [](const ElementwiseCall&, const void*) {};
  wrong_kind.hand_written = "x";
  EXPECT_THROW(reg.replace_loop("twice", "float32(float32)", wrong_kind), PluginError);
  EXPECT_EQ(reg.staged()[0].loops[0].impl[0].host, &generic);  // unchanged by the refusals
}

void indexed(char**, const std::int64_t*, const std::int64_t*, std::int64_t, const void*) {}

// An element index (a ufunc that draws) comes with host_index and without host, on ufuncs only.
TEST(Registrar, IndexedLoopsAreUfuncLoopsWithHostIndexAlone) {
  OpDesc ok = one_loop_op();
  EXPECT_FALSE(ok.takes_index());
  LoopImpl& h = ok.loops[0].impl[static_cast<int>(Family::host)];
  h.host = nullptr;
  h.host_index = &indexed;
  h.takes_index = true;
  Registrar reg(Family::host);
  EXPECT_NO_THROW(reg.add(ok));
  EXPECT_TRUE(reg.staged()[0].takes_index());

  OpDesc both = ok;
  both.name = "both";
  both.loops[0].impl[static_cast<int>(Family::host)].host = &generic;
  EXPECT_THROW(reg.add(both), PluginError);  // which loop would a call run?

  OpDesc no_loop = ok;
  no_loop.name = "no_loop";
  no_loop.loops[0].impl[static_cast<int>(Family::host)].host_index = nullptr;
  EXPECT_THROW(reg.add(no_loop), PluginError);

  OpDesc reduction = ok;
  reduction.name = "indexed_sum";
  reduction.kind = OpKind::reduce;
  try {
    reg.add(reduction);
    FAIL() << "no error";
  } catch (const PluginError& e) {
    EXPECT_NE(std::string(e.what()).find("takes an element index"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace loom
