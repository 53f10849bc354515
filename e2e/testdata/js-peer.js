// js-peer.js is the plain script that TestBrowserBenchmark (e2e/bench_test.go)
// measures pkcalc in the browser against: in the page, on its main thread, it
// streams a File through a TextDecoder, cuts it into lines, JSON.parses each
// and counts the documents per value of each key in a Map of its own, the
// best of three runs. It is one expression, a function of the File and the
// keys as peerKeys (e2e/peers_test.go) writes them, that resolves to
// {seconds, runs, documents, groups: [per key]}.
//
// A key's Map key is built as pkcalc builds the value: a hierarchical key's
// levels apart, a synthetic key's terms joined with "-", a time bucket the
// UTC time's first characters, a computed suffix FNV-1a (32 bits) of the
// value's UTF-8 text modulo N, as core/key's Suffix. A missing value counts
// as one value (Cosmos DB's undefined), an object or array as none.
(async (file, keys) => {
  const missing = '\u0000undefined';
  const cut = { hour: 13, day: 10, month: 7 };
  const utf8 = new TextEncoder();
  const fnv = (s) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) return fnvBytes(utf8.encode(s));
      h = Math.imul(h ^ c, 16777619);
    }
    return h >>> 0;
  };
  const fnvBytes = (b) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 16777619);
    return h >>> 0;
  };
  const lookup = (doc, path) => {
    let v = doc;
    for (const name of path) {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, name)) return undefined;
      v = v[name];
    }
    return v;
  };
  const invalid = (v) => typeof v === 'object' && v !== null;
  // A level's value, typed (1 and "1" are two values).
  const level = (v) => (v === undefined ? missing : typeof v === 'string' ? v : '\u0000' + JSON.stringify(v));
  // A term's text; undefined where the application could not compute it.
  const text = (v, t) => {
    if (v === undefined) return undefined;
    if (t.bucket) {
      const at = typeof v === 'string' ? new Date(v) : NaN;
      return isNaN(at) ? undefined : at.toISOString().slice(0, cut[t.bucket]);
    }
    const s = v === null ? 'null' : String(v);
    return t.modulus ? String(fnv(s) % t.modulus) : s;
  };
  // Each key's value of a document; null for none (an object or array).
  const valueOf = keys.map((k) => (doc) => {
    let out = '', undef = false;
    for (let i = 0; i < k.terms.length; i++) {
      const v = lookup(doc, k.terms[i].path);
      if (invalid(v)) return null;
      if (k.kind !== 'synthetic') {
        out = i === 0 ? level(v) : out + '\u0001' + level(v);
        continue;
      }
      const s = text(v, k.terms[i]);
      undef ||= s === undefined;
      out = i === 0 ? s : out + '-' + s;
    }
    return undef ? missing : out;
  });

  const runs = [];
  let maps, documents;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    maps = keys.map(() => new Map());
    documents = 0;
    const count = (line) => {
      if (line.length === 0) return;
      const doc = JSON.parse(line);
      documents++;
      for (let i = 0; i < maps.length; i++) {
        const v = valueOf[i](doc);
        if (v !== null) maps[i].set(v, (maps[i].get(v) ?? 0) + 1);
      }
    };
    const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = rest + value;
      let start = 0;
      for (let nl; (nl = chunk.indexOf('\n', start)) >= 0; start = nl + 1) count(chunk.slice(start, nl));
      rest = chunk.slice(start);
    }
    count(rest);
    runs.push((performance.now() - t0) / 1000);
  }
  return { seconds: Math.min(...runs), runs, documents, groups: maps.map((m) => m.size) };
})
