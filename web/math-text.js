// Plain-text mathematics for places that cannot hold markup (chart legends and axis titles drawn on a canvas, figure
// captions): the experiments' labels write sub- and superscripts as TeX groups, `Q*_{k,ε}` and `e^{−ε/2}`; here they
// become Unicode sub- and superscript characters where Unicode has them, and the group's braces go either way, so a
// reader sees `Q*ₖ,ε` instead of the markup (a character Unicode has no form for, like ε or g below the line, stays
// as it is; an `_` or `^` inside a group is dropped). Text outside `_{…}` and `^{…}` is left as it is.

const SUBSCRIPTS = Object.fromEntries(
  [...'0123456789+−-=()aehijklmnoprstuvxβγρφχ'].map((c, i) => [c, [...'₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ'][i]]),
);
const SUPERSCRIPTS = Object.fromEntries(
  [...'0123456789+−-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWβγδεθφχ'].map((c, i) => [
    c,
    [...'⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᵋᶿᵠᵡ'][i],
  ]),
);

/** `text` with its TeX `_{…}` / `^{…}` groups (not nested) written in Unicode sub- and superscripts where they exist. */
export function readableMath(text) {
  return String(text)
    .replace(/_\{([^{}]*)\}/g, (_, group) => [...group.replace(/[_^]/g, '')].map((c) => SUBSCRIPTS[c] ?? c).join(''))
    .replace(/\^\{([^{}]*)\}/g, (_, group) => [...group.replace(/[_^]/g, '')].map((c) => SUPERSCRIPTS[c] ?? c).join(''));
}
