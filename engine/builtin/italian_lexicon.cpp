#include "engine/builtin/italian_lexicon.h"

namespace ascope {
namespace {

constexpr Gender kM = Gender::kMasculine;
constexpr Gender kF = Gender::kFeminine;
constexpr unsigned kAny = kPerson | kAnimal | kThing;
constexpr unsigned kLiving = kPerson | kAnimal;
constexpr unsigned kNotPerson = kAnimal | kThing;

template <typename T, typename Key>
int findBy(const std::vector<T>& items, const std::string& english, Key key) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (key(items[i]) == english) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

int agreementIndex(Gender gender, bool plural) {
  return (plural ? 2 : 0) + (gender == Gender::kFeminine ? 1 : 0);
}

const std::vector<Noun>& nouns() {
  // "student", "backpack" and "mirror" start with s+consonant or z: they take lo / gli / uno.
  static const std::vector<Noun> kNouns{
      {"cat", "cats", "gatto", "gatti", kM, kAnimal},
      {"dog", "dogs", "cane", "cani", kM, kAnimal},
      {"horse", "horses", "cavallo", "cavalli", kM, kAnimal},
      {"boy", "boys", "ragazzo", "ragazzi", kM, kPerson},
      {"student", "students", "studente", "studenti", kM, kPerson},
      {"girl", "girls", "ragazza", "ragazze", kF, kPerson},
      {"book", "books", "libro", "libri", kM, kThing},
      {"train", "trains", "treno", "treni", kM, kThing},
      {"garden", "gardens", "giardino", "giardini", kM, kThing},
      {"flower", "flowers", "fiore", "fiori", kM, kThing},
      {"table", "tables", "tavolo", "tavoli", kM, kThing},
      {"hat", "hats", "cappello", "cappelli", kM, kThing},
      {"backpack", "backpacks", "zaino", "zaini", kM, kThing},
      {"mirror", "mirrors", "specchio", "specchi", kM, kThing},
      {"house", "houses", "casa", "case", kF, kThing},
      {"car", "cars", "macchina", "macchine", kF, kThing},
      {"ball", "balls", "palla", "palle", kF, kThing},
      {"apple", "apples", "mela", "mele", kF, kThing},
      {"door", "doors", "porta", "porte", kF, kThing},
      {"window", "windows", "finestra", "finestre", kF, kThing},
      {"chair", "chairs", "sedia", "sedie", kF, kThing},
      {"key", "keys", "chiave", "chiavi", kF, kThing},
      {"bicycle", "bicycles", "bicicletta", "biciclette", kF, kThing},
      {"letter", "letters", "lettera", "lettere", kF, kThing},
      {"bag", "bags", "borsa", "borse", kF, kThing},
      {"shoe", "shoes", "scarpa", "scarpe", kF, kThing},
      {"box", "boxes", "scatola", "scatole", kF, kThing},
  };
  return kNouns;
}

const std::vector<Adjective>& adjectives() {
  // All of these follow the noun in neutral Italian ("la macchina rossa").
  static const std::vector<Adjective> kAdjectives{
      {"red", {"rosso", "rossa", "rossi", "rosse"}, kThing},
      {"black", {"nero", "nera", "neri", "nere"}, kNotPerson},
      {"white", {"bianco", "bianca", "bianchi", "bianche"}, kNotPerson},
      {"yellow", {"giallo", "gialla", "gialli", "gialle"}, kThing},
      {"green", {"verde", "verde", "verdi", "verdi"}, kThing},
      {"big", {"grande", "grande", "grandi", "grandi"}, kAny},
      {"small", {"piccolo", "piccola", "piccoli", "piccole"}, kAny},
      {"new", {"nuovo", "nuova", "nuovi", "nuove"}, kThing | kPerson},
      {"old", {"vecchio", "vecchia", "vecchi", "vecchie"}, kNotPerson},
      {"beautiful", {"bello", "bella", "belli", "belle"}, kAny},
      {"heavy", {"pesante", "pesante", "pesanti", "pesanti"}, kThing},
      {"clean", {"pulito", "pulita", "puliti", "pulite"}, kNotPerson},
      {"young", {"giovane", "giovane", "giovani", "giovani"}, kLiving},
      {"tall", {"alto", "alta", "alti", "alte"}, kPerson},
  };
  return kAdjectives;
}

const std::vector<Verb>& verbs() {
  static const std::vector<Verb> kVerbs{
      {"see", "sees", {"vedo", "vedi", "vede", "vediamo", "vedono"}, kLiving, kAny},
      {"have", "has", {"ho", "hai", "ha", "abbiamo", "hanno"}, kLiving, kNotPerson},
      {"want", "wants", {"voglio", "vuoi", "vuole", "vogliamo", "vogliono"}, kLiving, kNotPerson},
      {"find", "finds", {"trovo", "trovi", "trova", "troviamo", "trovano"}, kLiving, kAny},
      {"take",
       "takes",
       {"prendo", "prendi", "prende", "prendiamo", "prendono"},
       kLiving,
       kNotPerson},
      {"buy", "buys", {"compro", "compri", "compra", "compriamo", "comprano"}, kPerson, kNotPerson},
      {"sell", "sells", {"vendo", "vendi", "vende", "vendiamo", "vendono"}, kPerson, kNotPerson},
      {"wash", "washes", {"lavo", "lavi", "lava", "laviamo", "lavano"}, kPerson, kNotPerson},
  };
  return kVerbs;
}

const std::vector<Pronoun>& pronouns() {
  static const std::vector<Pronoun> kPronouns{
      {"i", 0}, {"you", 1}, {"he", 2}, {"she", 2}, {"we", 3}, {"they", 4},
  };
  return kPronouns;
}

const std::vector<Possessive>& possessives() {
  // Italian possessives agree with the thing owned, not the owner: "his car" = "la sua macchina".
  static const std::vector<Possessive> kPossessives{
      {"my", {"mio", "mia", "miei", "mie"}},
      {"your", {"tuo", "tua", "tuoi", "tue"}},
      {"his", {"suo", "sua", "suoi", "sue"}},
      {"her", {"suo", "sua", "suoi", "sue"}},
      {"our", {"nostro", "nostra", "nostri", "nostre"}},
      {"their", {"loro", "loro", "loro", "loro"}},
  };
  return kPossessives;
}

const std::vector<NumberWord>& numberWords() {
  // No eight or eleven: "gli otto cani" / "le undici case" would need the vowel article forms.
  static const std::vector<NumberWord> kNumbers{
      {2, "two", "due"}, {3, "three", "tre"},   {4, "four", "quattro"}, {5, "five", "cinque"},
      {6, "six", "sei"}, {7, "seven", "sette"}, {9, "nine", "nove"},    {10, "ten", "dieci"},
  };
  return kNumbers;
}

const std::vector<std::array<std::string, 2>>& months() {
  static const std::vector<std::array<std::string, 2>> kMonths{
      {"january", "gennaio"}, {"february", "febbraio"}, {"march", "marzo"},
      {"april", "aprile"},    {"may", "maggio"},        {"june", "giugno"},
      {"july", "luglio"},     {"august", "agosto"},     {"september", "settembre"},
      {"october", "ottobre"}, {"november", "novembre"}, {"december", "dicembre"},
  };
  return kMonths;
}

const std::vector<int>& dateDays() {
  // Up to 28 so every day exists in every month.
  static const std::vector<int> kDays = [] {
    std::vector<int> days;
    for (int day = 2; day <= 28; ++day) {
      if (day != 8 && day != 11) days.push_back(day);
    }
    return days;
  }();
  return kDays;
}

int findNoun(const std::string& english) {
  return findBy(nouns(), english, [](const Noun& n) { return n.english; });
}
int findAdjective(const std::string& english) {
  return findBy(adjectives(), english, [](const Adjective& a) { return a.english; });
}
int findVerb(const std::string& english) {
  return findBy(verbs(), english, [](const Verb& v) { return v.english; });
}
int findPronoun(const std::string& english) {
  return findBy(pronouns(), english, [](const Pronoun& p) { return p.english; });
}
int findPossessive(const std::string& english) {
  return findBy(possessives(), english, [](const Possessive& p) { return p.english; });
}
int findNumberWord(const std::string& english) {
  return findBy(numberWords(), english, [](const NumberWord& n) { return n.english; });
}

}  // namespace ascope
