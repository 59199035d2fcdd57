import { storySetFigures } from './fixtures/story-sets.ts';
const f = await storySetFigures('/work/shared/data');
for (const [k, v] of Object.entries(f)) if (/_b3_f1$|margin|precision|recall/.test(k)) console.log(k, v);
