#include "base/release_table.hpp"

#include <algorithm>
#include <limits>

#include "base/errors.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {

using Wide = __uint128_t;

constexpr std::size_t kMaxAliasAtoms = std::size_t{1} << 24;
constexpr std::uint64_t kReleaseUnitsBits = 0x43E0'0000'0000'0000ULL;  // the double 2^63

// A fixed permutation of [0, n) (n a power of two) that keeps every block of 512 indices (the whole range when
// n < 512) and scrambles the order within it: an odd multiplier, then an xorshift, each a bijection of the block's
// bits. `block` is min(n, 512) − 1.
std::size_t scrambled(std::size_t i, std::size_t block) noexcept {
  std::size_t within = (i * 173) & block;
  within ^= within >> 3;
  return (i & ~block) | within;
}

unsigned bits_for(std::size_t k) {
  unsigned bits = 0;
  while ((std::size_t{1} << bits) < k) ++bits;
  return bits;
}

}  // namespace

void quantize_units(std::span<const double> target, const UnitBox& box, std::span<std::uint64_t> units) {
  const std::size_t k = target.size();
  const bool bounded = !box.hi.empty();
  if (units.size() != k || (bounded && (box.hi.size() != k || box.lo.size() != k))) {
    throw_shape({"quantize_units: the target has ", k, " atoms, the units ", units.size(), ", the box ",
                 bounded ? box.hi.size() : k});
  }
  // Floor and clamp: target·2^63 is exact (a power of two), and conversion truncates toward 0, a floor for t >= 0.
  // The clamp to [0, 2^63] works on t's bit pattern with integer masks, as clip_normalise's clip_bits does: V8
  // compiles WebAssembly's selects on doubles to branches, and these would be taken by whether an atom's target is
  // 0, so that a release's time would follow the pattern of the histogram's zeros. For t >= 0 the patterns order as
  // the values; a negative t (−0 too) becomes +0, and anything above 2^63 (a NaN too, which validation upstream never
  // lets through) becomes 2^63.
  // The conversion is a signed one, of a double below 2^63 (2^63 itself, a target of 1, is converted as the double
  // just below it and put back by a mask): WebAssembly's unsigned conversion is, on x86-64 in V8, a branch on whether
  // the value reaches 2^63, taken for an atom holding the whole mass, so a point mass's release took longer than other
  // histograms' in a way its index alone does not explain.
  Wide total = 0;
  for (std::size_t x = 0; x < k; ++x) {
    std::uint64_t t = bits_of(target[x] * 0x1p63);
    t &= std::uint64_t{0} - static_cast<std::uint64_t>((t >> 63) == 0);
    t ^= (t ^ kReleaseUnitsBits) & (std::uint64_t{0} - static_cast<std::uint64_t>(t > kReleaseUnitsBits));
    const std::uint64_t whole = std::uint64_t{0} - static_cast<std::uint64_t>(t == kReleaseUnitsBits);
    std::uint64_t w = static_cast<std::uint64_t>(static_cast<std::int64_t>(double_of(t - (whole & 1U))));
    w ^= (w ^ kReleaseUnits) & whole;
    const std::uint64_t lo = bounded ? box.lo[x] : 0;
    const std::uint64_t hi = bounded ? box.hi[x] : kReleaseUnits;
    w = w < lo ? lo : w;
    w = w > hi ? hi : w;
    units[x] = w;
    total += w;
  }
  // The difference from 2^63, moved onto the first atoms with room (one of the two is 0).
  Wide missing = total < kReleaseUnits ? Wide{kReleaseUnits} - total : 0;
  Wide surplus = total > kReleaseUnits ? total - kReleaseUnits : 0;
  for (std::size_t x = 0; x < k; ++x) {
    const std::uint64_t w = units[x];
    const std::uint64_t room = (bounded ? box.hi[x] : kReleaseUnits) - w;
    const std::uint64_t spare = w - (bounded ? box.lo[x] : 0);
    const std::uint64_t give = missing < room ? static_cast<std::uint64_t>(missing) : room;
    const std::uint64_t take = surplus < spare ? static_cast<std::uint64_t>(surplus) : spare;
    units[x] = w + give - take;
    missing -= give;
    surplus -= take;
  }
  if (missing != 0 || surplus != 0) {
    throw_invalid({"quantize_units: the box cannot hold 2^63 units (its lower ends sum above it or its upper ends "
                   "below it): a defect of the release plan"});
  }
}

std::size_t draw_units_once(std::span<const std::uint64_t> units, RandomBits& bits) {
  const std::uint64_t u = bits.next_u64() >> 1;
  std::uint64_t prefix = 0;
  std::size_t index = 0;
  for (const std::uint64_t w : units) {
    prefix += w;
    index += static_cast<std::size_t>(prefix <= u);  // atoms that end at or before u
  }
  return index;
}

AliasTable::AliasTable(std::span<const std::uint64_t> weights, std::uint64_t total) : atoms_(weights.size()) {
  if (atoms_ == 0 || atoms_ > kMaxAliasAtoms) {
    throw_invalid({"alias table: ", atoms_, " atoms: must be between 1 and ", kMaxAliasAtoms});
  }
  if (total == 0 || total > kReleaseUnits) throw_invalid({"alias table: total = ", total, ": must be in [1, 2^63]"});
  Wide sum = 0;
  for (const std::uint64_t w : weights) sum += w;
  if (sum != total) throw_invalid({"alias table: the weights do not sum to their stated total ", total});

  slot_bits_ = bits_for(atoms_);
  const std::size_t slots = std::size_t{1} << slot_bits_;
  // Each slot holds total/K when K divides it (the 2^63 units always), else the weights are scaled by K.
  const bool divides = total % slots == 0;
  capacity_ = divides ? total / slots : total;
  const std::uint64_t scale = divides ? 1 : slots;
  if (!divides && total > std::numeric_limits<std::uint64_t>::max() / slots) {
    throw_invalid({"alias table: total = ", total, " is too large for ", atoms_, " atoms"});
  }
  one_word_ = capacity_ == (std::uint64_t{1} << (63 - slot_bits_));

  // Why two passes read and write in a scrambled order: a processor holds a load back when its address matches a
  // store still in flight in the low 12 bits (4K aliasing). Each pass below stores at positions that the weights
  // choose or loads at them, and where the other side moved in step, the two could keep meeting: with the slots
  // written in order, a light cursor moving at half the sweep's pace (the histogram's mass on every other category)
  // read where slots were being written, modulo 4096 bytes, at every step, and the build was slower for that data.
  // So the first pass reads the weights, and the sweep writes the slots, in the order `scrambled` gives within
  // blocks of 512 entries: 4096 bytes of 8-byte entries, so that the addresses in flight jump about over every value
  // of their low 12 bits, and a load at any address, wherever a cursor is and however fast it moves, is as likely to
  // meet one as at any other. (Blocks of 256 left each array's writes within half of those values for a while, and a
  // cursor at the right pace could stay in or out of that half.) Which slot holds which part of the law does not
  // matter: a draw picks its slot uniformly.
  //
  // The K atoms (the k weights, scaled, and K − k of weight 0): light ones (weight < capacity) from the front of one
  // array, heavy ones from its back, each in the order they are read, each written with one store to an entry
  // chosen by a mask.
  struct Atom {
    std::uint64_t weight;
    std::uint64_t index;
  };
  std::vector<Atom> sorted(slots);
  std::size_t lights = 0;
  std::size_t heavies = 0;
  const std::size_t block = slots < 512 ? slots - 1 : 511;
  for (std::size_t i = 0; i < slots; ++i) {
    const std::size_t x = scrambled(i, block);
    const std::uint64_t weight = x < atoms_ ? weights[x] * scale : 0;
    const bool light = weight < capacity_;
    const std::uint64_t to_front = opaque_mask(light);
    sorted[(lights & to_front) | ((slots - 1 - heavies) & ~to_front)] = Atom{weight, x};
    lights += static_cast<std::size_t>(light);
    heavies += static_cast<std::size_t>(!light);
  }
  threshold_.resize(slots);  // every slot is written once below
  pair_.resize(slots);
  // A sweep (Huebschle-Schneider and Sanders' alias construction): one cursor walks the light atoms, one the heavy
  // ones, both in the order sorted, and the current heavy atom's remaining weight is carried. Step t fills slot
  // scrambled(t): with the next light atom, topped up from the current heavy one while that still holds a capacity,
  // or else with the current heavy atom itself (then no fuller than a capacity), topped up from the next heavy one.
  // Every step reads `sorted` at the two cursors, which only move forward, and writes one slot, the same slot at the
  // same step whatever the weights, so the memory the build touches, and its order, does not depend on the weights;
  // only how the two cursors' steps interleave does. (Vose's stacks paired atoms, and wrote them, in an order that
  // followed the data, and the build's time moved with the histogram's shape.) Exact integers keep Σ weight over the
  // atoms not yet placed = their number × capacity, with the current heavy atom's at `carried`; so a next heavy atom
  // exists whenever the current one falls below a capacity, and the last atom placed holds exactly one capacity (its
  // own index stands for its alias).
  std::size_t light = 0;  // light atoms placed; <= lights <= K − 1, a valid entry even when none is left
  std::size_t heavy = 0;  // heavy atoms placed
  std::uint64_t carried = sorted[slots - 1].weight;
  for (std::size_t step = 0; step < slots; ++step) {
    const bool take_light = (light < lights) & (carried >= capacity_);
    const std::size_t next_heavy = heavy + 1 < heavies ? heavy + 1 : heavies - 1;
    const Atom l = sorted[light];
    const std::uint64_t h = sorted[slots - 1 - heavy].index;
    const Atom n = sorted[slots - 1 - next_heavy];
    const std::uint64_t keep = opaque_mask(take_light);
    const std::size_t slot = scrambled(step, block);
    threshold_[slot] = (l.weight & keep) | (carried & ~keep);
    pair_[slot] = ((l.index & keep) | (h & ~keep)) | (((h & keep) | (n.index & ~keep)) << 32);
    // Both updates computed, one kept (the other may wrap around; it is discarded).
    const std::uint64_t after_light = carried - (capacity_ - l.weight);
    const std::uint64_t after_heavy = (carried - capacity_) + n.weight;
    carried = (after_light & keep) | (after_heavy & ~keep);
    light += static_cast<std::size_t>(take_light);
    heavy += static_cast<std::size_t>(!take_light);
  }
}

std::size_t AliasTable::draw(RandomBits& bits) const {
  const std::uint64_t word = bits.next_u64();
  if (one_word_) return draw_one_word(word);
  return in_slot(slot_of(word), uniform_below(bits, capacity_));  // else a second draw for the position
}

PublicBase PublicBase::uniform(std::size_t k) {
  if (k == 0) throw_invalid({"a public base needs at least one atom"});
  PublicBase base;
  base.atoms_ = k;
  base.total_ = k;
  return base;
}

PublicBase PublicBase::from_weights(std::vector<std::uint64_t> weights) {
  if (weights.empty()) throw_invalid({"a public base needs at least one atom"});
  PublicBase base;
  base.atoms_ = weights.size();
  base.upper_.resize(weights.size());
  Wide total = 0;
  for (std::size_t x = 0; x < weights.size(); ++x) {
    total += weights[x];
    if (total > kReleaseUnits) throw_invalid({"a public base's weights must sum to at most 2^63"});
    base.upper_[x] = static_cast<std::uint64_t>(total);
  }
  if (total == 0) throw_invalid({"a public base's weights are all zero"});
  base.total_ = static_cast<std::uint64_t>(total);
  base.weights_ = std::move(weights);
  return base;
}

std::size_t PublicBase::draw(RandomBits& bits) const { return draw(bits.next_u64(), bits); }

// Not inlined: its rejection and search would otherwise be copied into each loop that draws it.
[[gnu::noinline]] std::size_t PublicBase::draw(std::uint64_t word, RandomBits& bits) const {
  const std::uint64_t u = uniform_below(word, total_, bits);  // total_ = atoms_ for the uniform base
  if (weights_.empty()) return static_cast<std::size_t>(u);
  // The first x with upper_[x] > u (public weights: the search's path reveals nothing private).
  return static_cast<std::size_t>(std::upper_bound(upper_.begin(), upper_.end(), u) - upper_.begin());
}

}  // namespace privsample
