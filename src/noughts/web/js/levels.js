// The computer's levels are the server's (the catalogue, GET /api/games): the page
// keeps no list of its own, so a level added or renamed in the core shows up here.

/** `name` if the catalogue has such a level, else the catalogue's default level. */
export function chosenLevel(catalogue, name) {
  return catalogue.levels.some((l) => l.name === name) ? name : catalogue.default_level;
}

/** The strongest level (the catalogue lists them weakest first): hints, analyses, reviews. */
export function strongestLevel(catalogue) {
  return catalogue.levels[catalogue.levels.length - 1].name;
}
