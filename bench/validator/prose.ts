/*
 * Realistic English prose for the validator benchmark: sentences in the register of assistant
 * answers (explanations, how-tos, summaries), recombined with a seeded generator so every run
 * measures the same text. Some sentences carry the ordinary hedges and list endings real answers
 * have; none is a refusal or a tool error.
 */

const SENTENCES = [
  'The bridge was completed in 1932 after four years of construction and a long dispute over the budget.',
  'Sourdough bread rises because wild yeast and lactic acid bacteria ferment the sugars in the flour.',
  'To reset the router, hold the recessed button on the back panel for about ten seconds until the lights blink.',
  'The standard error of the mean shrinks as the sample grows, which is why larger surveys give tighter intervals.',
  'In the first half of the nineteenth century, most of the population still lived and worked on farms.',
  'A binary search halves the remaining range at every step, so it needs about log2(n) comparisons.',
  'Water boils at a lower temperature at high altitude because the air pressure above it is lower.',
  'The committee published its findings in March, and the recommendations were adopted the following year.',
  'You cannot divide by zero, so the function returns an error value when the denominator is empty.',
  'Photosynthesis turns light, water and carbon dioxide into glucose and oxygen inside the chloroplasts.',
  'The main causes were rising costs, a shortage of skilled workers and delays in the supply of steel.',
  'Most modern browsers cache static files, so the second visit to a page is usually much faster.',
  'The museum holds around forty thousand objects, of which only a small fraction is on display at any time.',
  'If the dough feels sticky, add flour a spoonful at a time and knead until it springs back when pressed.',
  'The treaty set the border along the river and gave both countries equal rights to navigation.',
  'Interest compounds monthly, so the effective annual rate is slightly higher than the nominal one.',
  'The error was in the sensor, which had drifted by two degrees since the last calibration.',
  'An exception to the rule is the leap year, when February has twenty-nine days instead of twenty-eight.',
  'The novel follows three generations of a family who run a small hotel on the northern coast.',
  'Vaccines train the immune system to recognise a pathogen without causing the disease itself.',
  'It might rain later in the afternoon, so the organisers moved the concert into the main hall.',
  'The results will probably vary with the hardware, the operating system and the size of the input.',
  'Bring a map, water, a warm layer, a first-aid kit, etc., and tell someone where you are going.',
  'The algorithm sorts the list in place and keeps equal elements in their original order.',
  'Earthquakes are measured on the moment magnitude scale, which replaced the older Richter scale.',
  'The second edition corrected several errors in the tables and added a chapter on regional dialects.',
  'Tomatoes ripen faster when stored next to bananas, which release ethylene gas as they mature.',
  'The company reported revenue of 4.2 billion, up eleven percent on the previous financial year.',
  'A lighthouse keeper in the 1890s would trim the wick, polish the lens and log the weather every night.',
  'The library lends e-books for three weeks, and you can renew a loan twice if nobody is waiting for it.',
  'Perhaps the simplest approach is to store the totals in a separate table and update them nightly.',
  'Glaciers carved the valley over thousands of years, leaving the steep walls and the flat floor we see today.',
  'The orchestra tunes to the oboe because its pitch is stable and its tone carries across the stage.',
  'The recipe serves four people and takes about forty minutes, including the time to prepare the vegetables.',
  'I recommend checking the tyre pressure once a month, since it drops slowly as the weather gets colder.',
  'Copper conducts electricity well and resists corrosion, which is why it is used in household wiring.',
  'The survey asked 2,400 adults about their commuting habits and found that cycling had doubled since 2015.',
  'When the file is larger than the buffer, the program reads it in chunks and processes each one in turn.',
  'The castle changed hands several times during the war before it was finally restored in the 1960s.',
  'Honey never really spoils: its low water content and acidity keep bacteria from growing.',
  'The café on the corner serves a naïve but charming version of the dish — it’s worth a visit.',
  'It’s easier to read the chart if you start from the legend and work clockwise.',
] as const;

const PARAGRAPH_BREAK = '\n\n';

/** A deterministic pseudo-random generator (mulberry32), so runs measure the same text. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Builds at least `length` characters of prose (cut at `length`), the same for the same seed. */
export function makeProse(length: number, seed = 1): string {
  const random = generator(seed);
  const parts: string[] = [];
  let total = 0;
  let inParagraph = 0;
  while (total < length) {
    const sentence = SENTENCES[Math.floor(random() * SENTENCES.length)] ?? SENTENCES[0];
    const separator =
      inParagraph === 0 ? '' : inParagraph > 3 && random() < 0.3 ? PARAGRAPH_BREAK : ' ';
    if (separator === PARAGRAPH_BREAK) inParagraph = 0;
    parts.push(separator, sentence);
    total += separator.length + sentence.length;
    inParagraph += 1;
  }
  return parts.join('').slice(0, length);
}
