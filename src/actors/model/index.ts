/**
 * The model's face: the shared words of the news that every stage looks down to. A leaf: it
 * imports no other folder, and nothing here needs Node (the web client bundles it).
 */
export * from './taxonomy.js';
export * from './feed-item.js';
export * from './reader.js';
