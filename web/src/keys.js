// A seat's Ed25519 key in this browser (docs/seals.md). When the page opens or takes a
// challenge it makes a key pair with WebCrypto (the private key cannot be exported, not even
// by the page), registers the public key with its seat, and keeps the private key in
// IndexedDB under a digest of the seat's token, so that the match page, and a reload of it,
// signs the head after each of the seat's plies and the final head. A browser without
// Ed25519 in WebCrypto plays without a key, as before.

const DATABASE = "gamerec";
const STORE = "seat-keys";
const TEXT = new TextEncoder();
/** The first item of every signed message (docs/seals.md §4). */
const DOMAIN = TEXT.encode("gamerec-seal-1");

/**
 * A new key pair, or null when this browser cannot make Ed25519 keys.
 * @returns {Promise<{pair: CryptoKeyPair, publicKey: Uint8Array} | null>}
 */
export async function newSeatKey() {
  try {
    const pair = /** @type {CryptoKeyPair} */ (
      await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]));
    const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    return { pair, publicKey };
  } catch (error) {
    return null;
  }
}

/** The name a seat's key is kept under: SHA-256 of its token, in hex. @param {string} token */
async function keyName(token) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", TEXT.encode(token)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** @returns {Promise<IDBDatabase>} */
function database() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

/**
 * Run one request on the key store.
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} make
 * @returns {Promise<any>}
 */
async function onStore(mode, make) {
  const db = await database();
  try {
    return await new Promise((resolve, reject) => {
      const request = make(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

/**
 * Keep a seat's key under its token: the private key, and the public key's bytes (what the
 * seat registered; a player who trusts it shows it to a verifier).
 * @param {string} token @param {{pair: CryptoKeyPair, publicKey: Uint8Array}} key
 */
export async function keepSeatKey(token, key) {
  const name = await keyName(token);
  const kept = { privateKey: key.pair.privateKey, publicKey: key.publicKey };
  await onStore("readwrite", (store) => store.put(kept, name));
}

/** The private key kept for a seat's token, or null. @param {string} token @returns {Promise<CryptoKey | null>} */
export async function seatKey(token) {
  try {
    const name = await keyName(token);
    return (await onStore("readonly", (store) => store.get(name)))?.privateKey ?? null;
  } catch (error) {
    return null;
  }
}

/**
 * A step (docs/seals.md §2): the number of items, then each item's length and bytes, every
 * number 4 bytes big-endian.
 * @param {Uint8Array[]} items
 */
function step(items) {
  const out = new Uint8Array(4 + items.reduce((total, item) => total + 4 + item.length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, items.length);
  let at = 4;
  for (const item of items) {
    view.setUint32(at, item.length);
    out.set(item, at + 4);
    at += 4 + item.length;
  }
  return out;
}

/** The bytes a signature over the head after `ply` signs. @param {number} ply @param {Uint8Array} head */
export function plyMessage(ply, head) {
  return step([DOMAIN, TEXT.encode("ply"), TEXT.encode(String(ply)), head]);
}

/** The bytes a signature over the final head signs. @param {Uint8Array} head */
export function finalMessage(head) {
  return step([DOMAIN, TEXT.encode("final"), head]);
}

/** Sign `message` with a seat's private key: 64 bytes. @param {CryptoKey} key @param {Uint8Array} message */
export async function signMessage(key, message) {
  return new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, key, message));
}
