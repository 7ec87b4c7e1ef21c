// Generates the shipped name lists of the person_name heuristic:
//
//   - ../../pii_names_more.go: first names of every locale of @faker-js/faker (v9) in Latin
//     letters, less those that are also lower-case English words (Debian's wamerican) or words
//     of the place names of any locale, or brands;
//   - ../../pii_names_other.go: first names that @faker-js/faker lacks, from the locales of Ruby
//     Faker, FakerPHP and ffaker (Debian's ruby-faker, php-faker and ruby-ffaker) of South and
//     South-East Asia, West and East Africa and Iran, where faker's lists are thin, filtered the same way and also
//     less the lower-case words of Spanish, French, German, Italian, Portuguese and Dutch
//     dictionaries and the proper nouns of wamerican (places, brands, figures). Their European
//     locales are left out: their long lists add words of those languages ("Eres") more than
//     names the detector lacks. Each is also taken without its accents (Tuấn, Tuan);
//   - ../../pii_surnames.go: the last names of the same four sources, filtered the same way,
//     each also without its accents (Nguyễn, Nguyen).
//
//	apt-get install wamerican wspanish wfrench wngerman witalian wportuguese wdutch ruby-faker php-faker ruby-ffaker
//	cd internal/signal/internal/givennames && npm install @faker-js/faker@9.9.0 js-yaml@4 && node gen.cjs
const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');
const { allLocales } = require('@faker-js/faker');

const rubyLocales = '/usr/share/rubygems-integration/all/gems/faker-2.21.0/lib/locales';
const phpProviders = '/usr/share/php/Faker/Provider';
const ffakerData = '/usr/share/rubygems-integration/all/gems/ffaker-2.20.0/lib/ffaker/data';
// The locales of Ruby Faker and FakerPHP whose first names are taken.
const otherLocales = /^(en-IND|en-NG|en-PAK|en-NEP|en-UG|en-MS|en-SG|en-TH|vi|fa|id|en_IN|en_NG|en_UG|ne_NP|bn_BD|ms_MY|vi_VN|fa_IR|en_PH|id_ID|en_SG|th_TH|name_in|name_vn|name_sn|name_ga|name_then|name_ph|name_id)$/;

const dict = (name) => fs.readFileSync(`/usr/share/dict/${name}`, 'utf8').split('\n').filter(Boolean);
const american = dict('american-english');
const english = new Set(american.filter((w) => w === w.toLowerCase()));
const properNouns = new Set(american.filter((w) => w !== w.toLowerCase()).map((w) => w.toLowerCase().replace(/'s$/, '')));
// Lower-case words only: the capitalised entries hold first names too.
const foreign = new Set(['spanish', 'french', 'ngerman', 'italian', 'portuguese', 'dutch'].flatMap(dict).filter((w) => w === w.toLowerCase()));
// Brands, products and words of technology that are also someone's first name.
const brands = new Set(('mercedes harley chanel dell ford jaguar porsche ferrari lexus mazda tesla audi skoda ' +
  'fiat kia opel seat rolex gucci prada cartier tiffany wendy denny dominos mattel lego nike adidas puma reebok ' +
  'disney pixar marvel siri alexa cortana gemini claude copilot bard java ruby rust julia perl swift kotlin dart ' +
  'elixir crystal apache ubuntu debian fedora arch gentoo android oracle cisco intel nvidia amd sony canon nikon ' +
  'zara mango lidl aldi tesco asda boots target costco kroger safeway walmart macy kohl amazon bing').split(' '));
// Abbreviations of days and months, which come before capitalised words ("Thu Nov 12").
const calendar = new Set('mon tue tues wed thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec'.split(' '));

const latin = /^[A-Za-zÀ-ÖØ-öø-žḀ-ỿ'\-]{3,}$/u;
// Any Latin letter (ư, ơ, ș, ț too), for the lists added after the first.
const latinAll = /^[\p{Script=Latin}'\-]{3,}$/u;
// Latin letters without their accents; đ has no decomposition.
const unaccented = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/g, 'd').normalize('NFC');

const places = new Set();
const names = new Set();
const otherNames = new Set();
const surnames = new Set();
const otherSurnames = new Set();
for (const data of Object.values(allLocales)) {
  const loc = data.location || {};
  for (const k of ['country', 'state', 'city_name', 'county']) {
    for (const s of Array.isArray(loc[k]) ? loc[k] : []) {
      for (const w of String(s).toLowerCase().split(/[\s,()\-]+/)) places.add(w);
    }
  }
  addNames(names, nameList(data.person && data.person.first_name), latin);
  addNames(surnames, nameList(data.person && data.person.last_name));
}

// Ruby Faker: faker.name.{first_name,male_first_name,female_first_name,neutral_first_name,last_name}
// of each locale file (the other files of the gem hold no names).
for (const file of fs.readdirSync(rubyLocales, { recursive: true }).sort()) {
  if (!/(^[^/]+|\/name)\.yml$/.test(file)) continue;
  for (const [loc, body] of Object.entries(yaml.load(fs.readFileSync(path.join(rubyLocales, file), 'utf8')))) {
    const n = body && body.faker && body.faker.name;
    if (!n) continue;
    for (const [k, v] of Object.entries(n)) {
      if (/first_name$/.test(k) && otherLocales.test(loc)) addNames(otherNames, nameList(v));
      if (k === 'last_name') addNames(otherSurnames, nameList(v));
    }
  }
}

// FakerPHP: the $firstName..., $lastName... arrays of each locale's Person provider.
for (const loc of fs.readdirSync(phpProviders).sort()) {
  const file = path.join(phpProviders, loc, 'Person.php');
  if (!fs.existsSync(file)) continue;
  const src = fs.readFileSync(file, 'utf8');
  for (const m of src.matchAll(/\$(firstName|lastName)\w*\s*=\s*\[([^\]]*)\];/g)) {
    const list = [...m[2].matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((q) => q[1].replace(/\\'/g, "'"));
    if (m[1] === 'lastName') addNames(otherSurnames, list);
    else if (otherLocales.test(loc)) addNames(otherNames, list);
  }
}

// ffaker: data/name_<locale>/{first_names*,middle_names,last_names}, a name a line.
for (const loc of fs.readdirSync(ffakerData).filter((d) => /^name_/.test(d)).sort()) {
  for (const file of fs.readdirSync(path.join(ffakerData, loc)).sort()) {
    const list = fs.readFileSync(path.join(ffakerData, loc, file), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
    if (file === 'last_names') addNames(otherSurnames, list);
    else if (/^(first|middle)_names/.test(file) && otherLocales.test(loc)) addNames(otherNames, list);
  }
}

// nameList flattens a locale's name definition: a list, or lists by sex.
function nameList(def) {
  if (!def) return [];
  return (Array.isArray(def) ? [def] : Object.values(def).filter(Array.isArray)).flat().map(String);
}

// addNames adds the names in Latin letters (as letters matches them), in lower case.
function addNames(set, list, letters = latinAll) {
  for (const n of list) {
    if (letters.test(n)) set.add(n.toLowerCase());
  }
}

const keep = (n) => !english.has(n) && !english.has(n.replace(/'s$/, '')) && !places.has(n) && !brands.has(n);
const unaccentedPlaces = new Set([...places].map(unaccented));
const keepOther = (n) => keep(n) && !unaccentedPlaces.has(n) && !foreign.has(n) && !properNouns.has(n) && !calendar.has(n);

const out = [...names].filter(keep).sort();
writeList('../../pii_names_more.go', 'moreGivenNames', `// moreGivenNames are first names of many languages and cultures (the first-name lists of
// @faker-js/faker's locales, MIT licence), less everyday English words, place names and
// brands; see gen.cjs.`, out);
const known = new Set(out);
// Each also without its accents (Tuấn, Tuan), as they are often typed.
// Names of three letters are left out: most are syllables of Chinese and Vietnamese names that
// are also abbreviations or brands before a capitalised word (Taj Mahal, Oki printers).
const outOther = [...new Set([...otherNames].flatMap((n) => [n, unaccented(n)]))]
  .filter((n) => [...n].length >= 4 && !known.has(n) && keepOther(n) && keepOther(unaccented(n))).sort();
writeList('../../pii_names_other.go', 'otherGivenNames', `// otherGivenNames are first names of Ruby Faker's, FakerPHP's and ffaker's locales of South
// and South-East Asia, West and East Africa and Iran (MIT licences) that moreGivenNames lacks,
// each also without its accents, less words of English and six other languages, proper nouns
// of English, place names, brands and names of three letters; see gen.cjs.`, outOther);

// Family names: each also without its accents, as they are often typed.
const family = new Set();
for (const [set, ok] of [[surnames, keep], [otherSurnames, keepOther]]) {
  for (const n of set) {
    for (const v of new Set([n, unaccented(n)])) {
      if (ok(v) && !english.has(unaccented(v)) && !places.has(unaccented(v))) family.add(v);
    }
  }
}
writeList('../../pii_surnames.go', 'familyNames', `// familyNames are last names of many languages and cultures (the last-name lists of the
// locales of @faker-js/faker, Ruby Faker, FakerPHP and ffaker, MIT licences, each also without
// its accents), less everyday English words, place names and brands; see gen.cjs.`, [...family].sort());

// writeList writes a Go file with one raw-string constant of space-separated words, in lines
// of at most 110 characters.
function writeList(file, name, doc, words) {
  let body = '';
  let line = '';
  for (const n of words) {
    if (line.length + n.length + 1 > 110) { body += line + '\n'; line = ''; }
    line += (line ? ' ' : '') + n;
  }
  body += line + '\n';
  fs.writeFileSync(file, `// Code generated by internal/signal/internal/givennames/gen.cjs; DO NOT EDIT.

package signal

${doc}
const ${name} = \`
${body}\`
`);
  console.log(file, words.length);
}
