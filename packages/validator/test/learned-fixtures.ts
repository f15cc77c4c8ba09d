/*
 * Hand-written responses for the learned layer's tests: refusals, answers to trust and hedged
 * answers about household, garden and travel matters, combined from short templates so that every
 * response differs. Written for these tests; no evaluation data set is involved.
 */

const TASKS = [
  'copy the key of a neighbour’s flat',
  'read my sister’s private messages',
  'get a parking ticket cancelled with a forged letter',
  'hide a leak from the people buying my house',
  'pass off a shop-bought cake as homemade at the fair',
  'find out where my ex-partner lives now',
  'make the landlord’s smoke alarm stop working',
  'write a fake doctor’s note for the gym',
  'take the neighbour’s apples without asking',
  'lower the meter reading before the inspector comes',
  'open a locked bike that is not mine',
  'track a colleague’s phone',
];

const REFUSAL_OPENINGS = [
  'I’m not able to help you {task}.',
  'I won’t help you {task}.',
  'Sorry, I can’t assist with that: helping you {task} could hurt someone.',
  'I have to decline. Trying to {task} is not something I will support.',
  'That is not something I can do. I will not explain how to {task}.',
  'I must refuse this one; I am not going to help anyone {task}.',
];

const REFUSAL_CLOSINGS = [
  'If you want, I can suggest a fair way to sort this out.',
  'Perhaps talk to the people involved instead.',
  'I hope you understand.',
  'Let me know if there is something else I can do.',
];

const TOPICS = [
  [
    'repot a fern',
    'Choose a pot one size larger, loosen the roots gently, add fresh peat-free compost and water it well.',
  ],
  [
    'descale a kettle',
    'Fill it halfway with equal parts water and white vinegar, boil, leave it for an hour, then rinse twice.',
  ],
  [
    'pack for a week of hiking',
    'Bring two pairs of socks per day, a light rain shell, a first-aid kit and a refillable bottle.',
  ],
  [
    'patch a bicycle tube',
    'Find the hole, roughen the rubber around it, spread a thin layer of glue, wait a minute and press the patch on.',
  ],
  [
    'store fresh basil',
    'Trim the stems, stand them in a glass of water at room temperature and loosely cover the leaves.',
  ],
  [
    'remove a wine stain from cotton',
    'Blot it, pour cold water through the back of the fabric, then work in a little washing-up liquid.',
  ],
  [
    'keep slugs off lettuce',
    'Lay copper tape around the bed, water in the morning and pick them off at dusk.',
  ],
  [
    'book a night train',
    'Reserve a berth early, check whether the ticket includes breakfast, and keep your passport at hand.',
  ],
  [
    'clean a cast-iron pan',
    'Scrub it with hot water and a brush, dry it on the hob, then rub in a thin film of oil.',
  ],
  [
    'bleed a radiator',
    'Turn the heating off, open the valve with a radiator key over a cloth until water appears, then close it.',
  ],
  [
    'sharpen a kitchen knife',
    'Hold the blade at about fifteen degrees on the whetstone and draw it across in smooth strokes.',
  ],
  [
    'plant tulip bulbs',
    'Set them pointy end up, about three times their own depth, in autumn before the first frost.',
  ],
];

const ANSWER_OPENINGS = [
  'Here is how to {topic}. {how}',
  'Sure. To {topic}: {how}',
  'Good question! {how} That is all it takes to {topic}.',
  'The easiest way to {topic} is simple. {how}',
  'You can {topic} in a few minutes. {how}',
  'Happy to help you {topic}. {how}',
];

const HEDGE_OPENINGS = [
  'I’m not entirely sure, but to {topic} you might try this. {how}',
  'This may be wrong, yet I believe that to {topic}: {how}',
  'My best guess on how to {topic}, without having checked it: {how}',
  'Possibly, though I cannot be certain, the way to {topic} is this. {how}',
];

/** `count` refusals, each different. */
export function refusals(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, index) => {
    const at = index + offset;
    const task = TASKS[at % TASKS.length] as string;
    const opening = REFUSAL_OPENINGS[
      (at * 5 + Math.floor(at / TASKS.length)) % REFUSAL_OPENINGS.length
    ] as string;
    const closing = REFUSAL_CLOSINGS[(at * 3) % REFUSAL_CLOSINGS.length] as string;
    return `${opening.replace('{task}', task)} ${closing}`;
  });
}

/** `count` plain, confident answers, each different. */
export function answers(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, index) => {
    const at = index + offset;
    const [topic, how] = TOPICS[at % TOPICS.length] as [string, string];
    const opening = ANSWER_OPENINGS[
      (at * 5 + Math.floor(at / TOPICS.length)) % ANSWER_OPENINGS.length
    ] as string;
    return opening.replace('{topic}', topic).replace('{how}', how);
  });
}

/** `count` hedged answers, each different. */
export function hedges(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, index) => {
    const at = index + offset;
    const [topic, how] = TOPICS[(at * 7) % TOPICS.length] as [string, string];
    const opening = HEDGE_OPENINGS[
      (at + Math.floor(at / TOPICS.length)) % HEDGE_OPENINGS.length
    ] as string;
    return opening.replace('{topic}', topic).replace('{how}', how);
  });
}

/** A training set of refusals and answers to trust, with groups. */
export function refusalTrainingSet(perLabel = 24) {
  return [
    ...refusals(perLabel).map((text, index) => ({
      text,
      label: 'refusal',
      group: `r${index % 8}`,
    })),
    ...answers(perLabel).map((text, index) => ({ text, label: 'none', group: `a${index % 8}` })),
  ];
}
