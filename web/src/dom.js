// Small helpers the pages share.

/**
 * A new element with attributes and children.
 * @param {string} tag @param {Record<string, string>} [attributes] @param {...(Node|string)} children
 */
export function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    made.setAttribute(key, value);
  }
  made.append(...children);
  return made;
}

/** A promise that resolves after `ms` milliseconds. @param {number} ms */
export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
