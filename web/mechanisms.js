// What the demo calls each mechanism and how it draws it, all from the library's registry (ps.registry, read in the
// page's worker): the picker's entries in the registry's order, the mechanism's name in sentences (its label), its
// plain-language line and a colour of its own. No mechanism is named here: a mechanism added to the library appears
// in the picker, the charts and the sentences without a change to the demo.

/** Colours in the registry's order; a list longer than the palette reuses it (the legend names every line). */
const PALETTE = [
  '#c0392b', '#2274a5', '#7b3fa0', '#1e8a4c', '#0f8b8d', '#d9820f', '#8d5a2b', '#555b66', '#b8336a', '#6b8e23',
];

let known = new Map();

/** Learns the finite mechanisms ({ name, label, plain, notion }, in the registry's order) from the worker's answer. */
export function learnMechanisms(mechanisms) {
  known = new Map(mechanisms.map((m, i) => [m.name, { ...m, color: PALETTE[i % PALETTE.length] }]));
}

/** A mechanism's name in sentences ("the minimax sampler"), or its library name. */
export const shortName = (mechanism) => known.get(mechanism)?.label ?? mechanism;

/** A mechanism's name in a chart legend: its label without the article. */
export const legendName = (mechanism) => shortName(mechanism).replace(/^the /, '');

/** One plain-language line: what the mechanism does. */
export const explainMechanism = (mechanism) => known.get(mechanism)?.plain ?? '';

/** The mechanism's colour in the charts, or undefined for one the registry does not list. */
export const mechanismColor = (mechanism) => known.get(mechanism)?.color;

/**
 * Fills a <select> with the learnt mechanisms (record-level ones marked "(records)") and selects `wanted` when it is
 * among them, else the select's data-default.
 */
export function fillPicker(select, wanted) {
  const options = [...known.values()].map((m) => {
    const option = document.createElement('option');
    option.value = m.name;
    option.textContent = `${legendName(m.name)}${m.notion === 'record-dp' ? ' (records)' : ''}`;
    return option;
  });
  select.replaceChildren(...options);
  select.value = known.has(wanted) ? wanted : select.dataset.default;
}
