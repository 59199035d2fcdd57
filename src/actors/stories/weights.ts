/**
 * The weights of the join score (scoring.ts `scoreStory`), one profile per kind of article: a
 * bare headline, a bare headline against a story that has snippets, a snippet, a long text. Each
 * profile's comment says what it was tuned on and what was tried and dropped.
 */

export interface ScoreWeights {
  content: number;
  entities: number;
  headline: number;
  time: number;
  category: number;
  /** penalty when both sides name people and share none */
  personConflict: number;
  /** penalty when both sides name any entities and share none */
  entityConflict: number;
  /** penalty when both sides name places and share none */
  placeConflict: number;
  /** penalties when the article shares no rare entity / country / city with the story's core */
  coreEntityConflict: number;
  corePlaceConflict: number;
  coreCityConflict: number;

  /**
   * penalty when what happened disagrees: the cosine of the article's "what" words (not parts of
   * names) with the story's is below `whatFloor`
   */
  whatConflict: number;
  whatFloor: number;
  /**
   * penalty when the article shares no entity (person, organisation, name) with the story and its
   * "what" cosine is below `namelessWhatFloor`: it meets the story on a place or common words
   * alone, and what happened disagrees (absent: 0)
   */
  namelessWhatConflict?: number;
  namelessWhatFloor?: number;
  /**
   * with `namelessWhatConflict`: an article whose only names in common with the story are single
   * words of people's names (a surname) counts as sharing no name ("Minister Pemwick hails
   * housing bill" meeting an election story about Umar Pemwick) (absent: false)
   */
  nameWordIsNameless?: boolean;
  /**
   * penalty when the headline names whose something is ("Lawmakers pass Undton's housing bill"),
   * the story never names that word, and the story's core names someone or something: another
   * person's bill (absent: 0)
   */
  possessiveConflict?: number;
  /** penalty when both headlines name whose it is and the story never names the article's one (absent: 0) */
  rivalPossessiveConflict?: number;
  /** as `leadPossessiveConflict`, when the article names someone by one word only ("Minister Pemwick") (absent: 0) */
  leadPossessivePersonConflict?: number;
  /** as `leadPossessiveConflict`, against a story of headlines only (absent: 0) */
  leadPossessiveBareConflict?: number;
  /**
   * penalty when the story's lead headline names whose it is ("Undton's") and the article names
   * others but not that one (absent: 0)
   */
  leadPossessiveConflict?: number;
  /**
   * penalty when the headline names someone or somewhere the story never mentions and the story's
   * lead headline names someone or somewhere the article never mentions: the same words about
   * another who or where (absent: 0)
   */
  nameConflict?: number;
  /**
   * with `nameConflict`: the share of the shorter frame (headline words that are not names) the
   * article's headline and the lead must have in common for the names to conflict (absent: 0)
   */
  nameFrame?: number;
  /** with `nameConflict`: below this content similarity the names conflict whatever the frame (absent: 0) */
  nameContentFloor?: number;
  /** penalty when the article holds less than `themeFloor` of the story's theme (IDF-weighted) */
  themeConflict: number;
  themeFloor: number;
  /** penalty when the article and the story name kinds of happening and none agree (absent: 0) */
  kindConflict?: number;
  /**
   * bonus when the article names the kind of disaster the story is about (a quake, a flood, a
   * ferry capsizing; not merely kinds that go together) and the city at its core (absent: 0)
   */
  sameDisasterBonus?: number;
  /** discount of similarity to a single member against similarity to the centroid */
  exemplar: number;
  /** time scale of the proximity term, ms */
  timeScaleMs: number;
  /** join when the best score reaches this */
  threshold: number;
}

/**
 * Weights for headline-only articles. Short vectors give low cosines even for the same event,
 * so the threshold is low; a story is matched by its centroid only (single members of a
 * sprawling story drifted stories apart on the UCI set), and headline wording counts through
 * the title-weighted terms of the vector. Tuned on the UCI stories dev set.
 *
 * Another who or where (`nameConflict`, `namesDiffer` below): a headline written like the
 * story's lead ("Tickets for Whitetti tour resell for $67 million" against "Tickets for
 * Ibarorsen tour resell for $3 billion") but naming people, organisations or places the story
 * never mentions, while the lead names ones the headline never mentions, is another event. For
 * bare headlines against a story of bare headlines only when 80 % of the shorter headline's
 * other words are the lead's (`nameFrame`), or when the match is weak anyway (content below 0.1,
 * `nameContentFloor`: "Regulators fine Quilvane Networks ..." met a scooter launch on two
 * words): UCI's stories are broad (a GM recall story holds "NHTSA has 107 questions" and "GM picks
 * Valukas for recall probe"), and the rule on every frame cost it 0.827 -> 0.73; on frames of 60 %,
 * 0.81.
 */
export const HEADLINE_WEIGHTS: ScoreWeights = {
  content: 1,
  whatConflict: 0,
  whatFloor: 0,
  themeConflict: 0,
  themeFloor: 0,
  entities: 0.1,
  headline: 0,
  time: 0.05,
  category: 0.1,
  entityConflict: 0,
  personConflict: 0.6,
  placeConflict: 0.6,
  coreEntityConflict: 0,
  corePlaceConflict: 0,
  coreCityConflict: 0,
  exemplar: 0,
  timeScaleMs: 36 * 3_600_000,
  threshold: 0.2,
  rivalPossessiveConflict: 0.6,
  leadPossessivePersonConflict: 0.6,
  nameConflict: 0.6,
  nameFrame: 0.8,
  nameContentFloor: 0.1,
};

/**
 * Weights for a headline-only article against a story that has a writing with a snippet or text
 * (a news sitemap's headline meeting a story the feeds tell). Such a story's "what" words are
 * known, so a bare headline that shares no name with it must agree with them (a "what" cosine
 * below 0.2 costs 0.5: a quake headline meeting a flood story on "Istanbul" alone is another
 * event); it must name where the story happened, if it names a place (core countries and
 * cities), and whom it is about, if it names someone ("Chennai Comets beat Delhi Rangers" is not
 * the Bogota Rangers' match). A story of headlines only (the UCI set) keeps the headline profile:
 * short paraphrases share few "what" words, and these rules cost it 0.02-0.1 of F1 there.
 * Chosen on the demo's front page (bench/fixtures/demo-front.ts). Tried and not kept: the "what"
 * rule for every bare headline (ECB+ 0.861 -> 0.854: its lead-only documents share names with
 * their story but few "what" words), entity conflicts on lone names ("Raston"; the headline then
 * opens a story of its own that gathers every look-alike). Sharing only one word of a person's
 * name counts as sharing none ("Minister Pemwick hails passage of housing bill" joined an
 * election story about Umar Pemwick: demo worst 0.85 -> 0.94; UCI, ECB+ and the simulated day
 * unchanged; the rule for every bare headline cost ECB+ 0.007, above).
 *
 * A possessive names whose something is ("Lawmakers pass Undton's housing bill"), though no role
 * word marks the name as a person's: a headline whose possessive name the story never uses does
 * not join a story that names others (another person's bill), and the possessive name counts as
 * one word of a name, so sharing only it with a namesake's story does not excuse what happened.
 * The headline that is kept out opens a story of its own, and such a story of bare headlines must
 * not gather every look-alike: in every headline profile a headline naming another possessive
 * (`rivalPossessiveConflict`) or someone by one word only ("Minister Pemwick",
 * `leadPossessivePersonConflict`) meets a story whose lead names whose it is with a conflict,
 * and so does a snippet naming others but not that name while the story has no snippet yet
 * (SNIPPET_WEIGHTS). Demo first 50 mean 0.979 -> 0.987, worst 0.78 -> 0.84, first 20 unchanged;
 * UCI, ECB+, the simulated day unchanged. Tried and not kept: a lead's possessive against any
 * headline naming others (UCI 0.827 -> 0.77: "Apple's" leads), or naming a person (UCI 0.79),
 * and against snippets once the story has any (simulated F1 0.909 -> 0.908).
 *
 * Another who or where conflicts whatever the frame here (`nameFrame` 0): "Explainer: Brenton
 * tour sells out in minutes" joined "Tickets for Ibarorsen tour resell for $3 billion" on words
 * the story's snippets use. Real data does not meet this profile (UCI has no snippets, ECB+ has
 * texts), so only the demo's front page checks it.
 */
export const HEADLINE_IN_BODIED_WEIGHTS: ScoreWeights = {
  ...HEADLINE_WEIGHTS,
  namelessWhatConflict: 0.5,
  namelessWhatFloor: 0.2,
  nameWordIsNameless: true,
  possessiveConflict: 0.6,
  leadPossessiveConflict: 0.6,
  coreEntityConflict: 0.3,
  corePlaceConflict: 0.6,
  coreCityConflict: 0.6,
  sameDisasterBonus: 0.2,
  nameFrame: 0,
};

/**
 * Weights for articles with text (a long snippet or a body). Long vectors make the cosine
 * reliable and similar-but-different events share entities and category, so content decides;
 * a long report names many people, so another person weighs little. What happened must still
 * agree: no "what" words in common, or none of the words every report of the story uses, costs
 * 0.3 (on ECB+ every stronger rule here, core names or cities included, cost more recall than it
 * bought precision). A single member counts 0.85 of the centroid (0.9 let one template-like
 * report pull a look-alike event in).
 */
export const TEXT_WEIGHTS: ScoreWeights = {
  content: 1,
  whatConflict: 0.3,
  whatFloor: 0.05,
  themeConflict: 0.3,
  themeFloor: 0.5,
  entities: 0.1,
  headline: 0.05,
  time: 0.05,
  category: 0,
  entityConflict: 0,
  personConflict: 0.2,
  placeConflict: 0.6,
  coreEntityConflict: 0,
  corePlaceConflict: 0,
  coreCityConflict: 0,
  exemplar: 0.85,
  timeScaleMs: 36 * 3_600_000,
  threshold: 0.34,
  sameDisasterBonus: 0.2,
};

/**
 * Weights for title + snippet (the common feed item). A snippet is the lead sentence, and
 * formulaic news repeats lead sentences event after event with other names in them; so the
 * article must share an entity, country and city with what the story is about (its core), and
 * what happened must agree (a quake, a march and a ceremony in one city share the city), down
 * to the kind of happening: a ferry capsizing and a building collapse in one city, told in one
 * formula, disagree on nothing else (event-kinds.ts; simulated top-50 worst 0.58 -> 1.0, F1
 * 0.907 -> 0.909). Only here: for long texts, which name many kinds in passing, the kind rule
 * cost ECB+ 0.861 -> 0.836, and UCI (headlines) and ECB+ barely meet this profile, so real data
 * does not check it. Tuned on the simulator's events, checked on UCI and ECB+. Another who or
 * where than the lead's, neither side mentioning the other's (`nameConflict`, whatever the
 * frame: a snippet's words reach the story's through its other writings), is another event; not
 * for long texts, which name many people and places (on ECB+ the rule changed nothing).
 */
export const SNIPPET_WEIGHTS: ScoreWeights = {
  ...TEXT_WEIGHTS,
  nameConflict: 0.6,
  kindConflict: 0.3,
  whatFloor: 0.1,
  exemplar: 0.9,
  threshold: 0.4,
  personConflict: 0.6,
  leadPossessiveBareConflict: 0.6,
  coreEntityConflict: 0.3,
  corePlaceConflict: 0.6,
  coreCityConflict: 0.6,
};
