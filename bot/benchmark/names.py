"""The words a synthetic corpus is made of: people's names in several languages, seats, parties,
chambers and the procedure words of parliamentary incidents.

Real given names and name parts of each language are expanded syllable by syllable (``Language.surname``,
``Language.place``), so a corpus of 100,000 incidents brings well over 100,000 distinct words, with
the accents and letters each language writes (ł, ñ, ā, é, ŵ, ij...). Nothing here is a fact about a
real person: the names are drawn, not looked up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Language:
    """How names are made in one language: given names as they are, surnames and seats by syllables."""

    name: str
    given: tuple[str, ...]
    onsets: tuple[str, ...]  # how a syllable begins ("" for a vowel)
    vowels: tuple[str, ...]
    endings: tuple[str, ...]  # how a surname ends ("" for nothing more)
    prefixes: tuple[str, ...] = ("",)  # "O'", "Mac", "van der ", "ap "
    place_endings: tuple[str, ...] = ("",)

    def _stem(self, rng: random.Random, syllables: int) -> str:
        return "".join(rng.choice(self.onsets) + rng.choice(self.vowels) for _ in range(syllables))

    def surname(self, rng: random.Random) -> str:
        stem = self._stem(rng, rng.choice((1, 2, 2, 3))) + rng.choice(self.endings)
        return rng.choice(self.prefixes) + stem[:1].upper() + stem[1:]

    def place(self, rng: random.Random) -> str:
        stem = self._stem(rng, rng.choice((2, 2, 3))) + rng.choice(self.place_endings)
        return stem[:1].upper() + stem[1:]


LANGUAGES: tuple[Language, ...] = (
    Language(
        "French",
        ("Élodie", "Amélie", "Hélène", "Céline", "Geneviève", "Françoise", "Anaïs", "Maëlle", "Noémie",
         "Stéphane", "Jérôme", "François", "Benoît", "Loïc", "Gaëtan", "Thérèse", "René", "Clément"),
        ("b", "c", "d", "f", "g", "l", "m", "n", "p", "r", "s", "t", "v", "ch", "gu", "qu"),
        ("a", "e", "i", "o", "ou", "é", "è", "au", "eau", "ai"),
        ("", "t", "n", "rd", "ault", "ier", "ière", "on", "ot", "eux", "ès", "ç"),
        ("", "", "", "Le ", "De ", "Du "),
        ("", "-sur-Mer", "-les-Bains", "ville", "court"),
    ),
    Language(
        "Spanish",
        ("Inés", "Sofía", "María José", "Begoña", "Lucía", "Ángela", "Verónica", "Nuria", "Íñigo",
         "José Luis", "Joaquín", "Andrés", "Ramón", "Martín", "Álvaro", "Tomás", "Sebastián", "Óscar"),
        ("b", "c", "d", "g", "l", "ll", "m", "n", "ñ", "p", "r", "rr", "s", "t", "v", "z", "ch"),
        ("a", "e", "i", "o", "u", "á", "é", "í", "ó", "ue", "ia"),
        ("ez", "ez", "es", "ado", "ero", "illa", "ón", "ano", "", "aga", "eda"),
        ("", "", "", "de la ", "del "),
        ("", " del Río", " de la Sierra", "ena", "illo"),
    ),
    Language(
        "Polish",
        ("Małgorzata", "Agnieszka", "Żaneta", "Bożena", "Grażyna", "Łucja", "Jolanta", "Katarzyna",
         "Paweł", "Michał", "Łukasz", "Wojciech", "Przemysław", "Jarosław", "Zbigniew", "Grzegorz"),
        ("b", "d", "g", "k", "l", "ł", "m", "n", "p", "r", "s", "t", "w", "z", "ż", "sz", "cz", "rz", "dź",
         "ś"),
        ("a", "e", "i", "o", "u", "y", "ą", "ę", "ó", "ie"),
        ("ski", "ska", "cki", "wicz", "owicz", "czyk", "ak", "ek", "iak", "ńska", "ewski", ""),
        ("",),
        ("ów", "owo", "ice", "in", "no"),
    ),
    Language(
        "Maori",
        ("Aroha", "Mereana", "Hineāmaru", "Tūī", "Wikitōria", "Ngaio", "Kiri", "Rāwiri", "Tāmati",
         "Whetū", "Hēmi", "Nīkau", "Mātene", "Pāora", "Te Ao", "Hōne", "Rangi", "Wiremu"),
        ("h", "k", "m", "n", "ng", "p", "r", "t", "w", "wh", ""),
        ("a", "e", "i", "o", "u", "ā", "ē", "ī", "ō", "ū", "ai", "au"),
        ("", "", "a", "nga", "hi", "ti"),
        ("", "", "", "Te "),
        ("", "-iti", "nui", "roa"),
    ),
    Language(
        "Hindi",
        ("Ananya", "Priyanka", "Sunita", "Lakshmi", "Kavya", "Aishwarya", "Deepika", "Meera", "Rohit",
         "Vikram", "Arjun", "Sanjay", "Rahul", "Aditya", "Pranav", "Harish", "Anil", "Suresh"),
        ("b", "bh", "ch", "d", "dh", "g", "gh", "j", "k", "kh", "l", "m", "n", "p", "r", "s", "sh", "t", "v"),
        ("a", "aa", "i", "ee", "u", "e", "ai", "o", "au"),
        ("", "wal", "war", "ani", "endra", "ya", "an", "ar", "ari", "esh", "pathi"),
        ("",),
        ("pur", "abad", "nagar", "garh", "pet", "ganj"),
    ),
    Language(
        "Irish",
        ("Siobhán", "Aoife", "Gráinne", "Caoimhe", "Niamh", "Róisín", "Sorcha", "Bríd", "Éabha",
         "Seán", "Pádraig", "Ciarán", "Eoghan", "Tadhg", "Oisín", "Donnchadh", "Colm", "Ruairí"),
        ("b", "c", "d", "f", "g", "l", "m", "n", "r", "s", "t", "bh", "mh", "gh"),
        ("a", "ai", "ea", "ei", "o", "u", "á", "é", "í", "ó", "ú", "ao"),
        ("", "n", "in", "an", "ey", "agh", "ane", "ahan", "ll"),
        ("O'", "Mac ", "Mc", "Ní ", "Ó ", "Nic ", "", ""),
        ("more", "beg", "ross", "derry", "kill", ""),
    ),
    Language(
        "Welsh",
        ("Angharad", "Bethan", "Catrin", "Eleri", "Ffion", "Gwenllian", "Lowri", "Nia", "Rhiannon",
         "Dafydd", "Emrys", "Gethin", "Iwan", "Llŷr", "Owain", "Rhodri", "Siôn", "Tomos"),
        ("b", "c", "d", "dd", "f", "ff", "g", "ll", "m", "n", "r", "rh", "s", "t", "th", "w"),
        ("a", "e", "i", "o", "u", "w", "y", "ŵ", "ŷ", "â", "ai", "ae"),
        ("", "s", "n", "dd", "ion", "wen", "an"),
        ("", "", "", "ap ", "ab "),
        ("", "fach", "fawr", "-on-Sea", "ydd"),
    ),
    Language(
        "Dutch",
        ("Anouk", "Femke", "Ilse", "Marijke", "Sanne", "Lieke", "Mieke", "Fleur", "Geertje",
         "Joost", "Maarten", "Pieter", "Sjoerd", "Thijs", "Wouter", "Bram", "Ruud", "Gijs"),
        ("b", "d", "g", "h", "k", "l", "m", "n", "r", "s", "t", "v", "w", "z", "sch", "kr", "br"),
        ("a", "aa", "e", "ee", "i", "ij", "o", "oo", "oe", "u", "ui", "eu"),
        ("", "man", "stra", "sma", "ink", "berg", "dijk", "huis", "veld", "er"),
        ("", "", "van ", "van der ", "de ", "ter "),
        ("dam", "drecht", "hoven", "wijk", "sluis", "burg"),
    ),
    Language(
        "Yoruba",
        ("Adébáyọ̀", "Folake", "Ọláìtán", "Yétúndé", "Ayọ̀délé", "Bọ́lá", "Kẹ́hìndé", "Títí", "Túndé",
         "Olúwaṣeun", "Babájídé", "Dàmọ́lá", "Fúnmiláyọ̀", "Ìbùkún", "Adé", "Fẹ́mi", "Ṣẹ̀gun", "Jídé"),
        ("b", "d", "f", "g", "gb", "j", "k", "l", "m", "n", "p", "r", "s", "ṣ", "t", "w", "y"),
        ("a", "e", "ẹ", "i", "o", "ọ", "u", "á", "é", "ó", "ọ́", "à"),
        ("", "", "mi", "de", "la", "yọ̀"),
        ("", "", "", "Olú", "Adé"),
        ("", "-Ekiti", "-Odò", "kọ"),
    ),
    Language(
        "Turkish",
        ("Ayşe", "Gülşen", "Şükran", "Özlem", "Çiğdem", "Büşra", "Elif", "Dilek", "Nazlı",
         "Barış", "Çağlar", "Doğan", "Gökhan", "İlker", "Müşerref", "Oğuz", "Şener", "Ümit"),
        ("b", "c", "ç", "d", "g", "ğ", "k", "l", "m", "n", "r", "s", "ş", "t", "y", "z"),
        ("a", "e", "ı", "i", "o", "ö", "u", "ü"),
        ("", "oğlu", "can", "er", "han", "ay", "soy", "taş", "kaya", "türk"),
        ("",),
        ("köy", "kent", "pınar", "dere", "lı"),
    ),
)  # fmt: skip

# Chambers: slug, name, legislature, country, the chair's title, the languages its members' names come from.
CHAMBERS: tuple[tuple[str, str, str, str, str, tuple[str, ...]], ...] = (
    ("ca-house-of-commons", "House of Commons of Canada", "Parliament of Canada", "Canada", "Speaker",
     ("French", "Irish", "Hindi", "Dutch")),
    ("ca-senate", "Senate of Canada", "Parliament of Canada", "Canada", "Speaker of the Senate",
     ("French", "Irish")),
    ("qc-assemblee-nationale", "Assemblée nationale du Québec", "Parliament of Quebec", "Canada", "Président",
     ("French",)),
    ("uk-house-of-commons", "House of Commons", "Parliament of the United Kingdom", "United Kingdom",
     "Speaker", ("Welsh", "Irish", "Hindi", "Yoruba")),
    ("uk-house-of-lords", "House of Lords", "Parliament of the United Kingdom", "United Kingdom",
     "Lord Speaker", ("Welsh", "Irish")),
    ("wales-senedd", "Senedd Cymru", "Welsh Parliament", "United Kingdom", "Llywydd", ("Welsh",)),
    ("ni-assembly", "Northern Ireland Assembly", "Northern Ireland Assembly", "United Kingdom", "Speaker",
     ("Irish",)),
    ("ie-dail-eireann", "Dáil Éireann", "Houses of the Oireachtas", "Ireland", "Ceann Comhairle", ("Irish",)),
    ("ie-seanad", "Seanad Éireann", "Houses of the Oireachtas", "Ireland", "Cathaoirleach", ("Irish",)),
    ("au-house-of-representatives", "House of Representatives", "Parliament of Australia", "Australia",
     "Speaker", ("Irish", "Welsh", "Dutch", "Turkish")),
    ("au-senate", "Australian Senate", "Parliament of Australia", "Australia", "President of the Senate",
     ("Irish", "Dutch")),
    ("nsw-legislative-assembly", "Legislative Assembly of New South Wales", "Parliament of New South Wales",
     "Australia", "Speaker", ("Irish", "Turkish")),
    ("nz-house-of-representatives", "New Zealand House of Representatives", "New Zealand Parliament",
     "New Zealand", "Speaker", ("Maori", "Irish", "Dutch")),
    ("in-lok-sabha", "Lok Sabha", "Parliament of India", "India", "Speaker", ("Hindi",)),
    ("in-rajya-sabha", "Rajya Sabha", "Parliament of India", "India", "Chairman", ("Hindi",)),
    ("mh-vidhan-sabha", "Maharashtra Legislative Assembly", "Maharashtra Legislature", "India", "Speaker",
     ("Hindi",)),
    ("fr-assemblee-nationale", "Assemblée nationale", "Parlement français", "France", "Président",
     ("French",)),
    ("fr-senat", "Sénat", "Parlement français", "France", "Président du Sénat", ("French",)),
    ("be-chamber", "Chamber of Representatives", "Belgian Federal Parliament", "Belgium", "President",
     ("French", "Dutch")),
    ("nl-tweede-kamer", "Tweede Kamer", "States General of the Netherlands", "Netherlands", "Voorzitter",
     ("Dutch",)),
    ("es-congreso", "Congreso de los Diputados", "Cortes Generales", "Spain", "Presidente", ("Spanish",)),
    ("es-senado", "Senado de España", "Cortes Generales", "Spain", "Presidente del Senado", ("Spanish",)),
    ("mx-camara-de-diputados", "Cámara de Diputados", "Congreso de la Unión", "Mexico", "Presidente",
     ("Spanish",)),
    ("ar-camara-de-diputados", "Honorable Cámara de Diputados", "Congreso de la Nación Argentina",
     "Argentina", "Presidente", ("Spanish",)),
    ("cl-camara", "Cámara de Diputadas y Diputados", "Congreso Nacional de Chile", "Chile", "Presidente",
     ("Spanish",)),
    ("pl-sejm", "Sejm", "Parliament of Poland", "Poland", "Marszałek", ("Polish",)),
    ("pl-senat", "Senat", "Parliament of Poland", "Poland", "Marszałek Senatu", ("Polish",)),
    ("za-national-assembly", "National Assembly of South Africa", "Parliament of South Africa",
     "South Africa", "Speaker", ("Dutch", "Yoruba")),
    ("ng-house-of-representatives", "House of Representatives of Nigeria", "National Assembly of Nigeria",
     "Nigeria", "Speaker", ("Yoruba",)),
    ("tr-grand-national-assembly", "Grand National Assembly", "Grand National Assembly of Turkey", "Turkey",
     "Speaker", ("Turkish",)),
)  # fmt: skip

PARTY_ADJECTIVES = (
    "Democratic", "Progressive", "Liberal", "Conservative", "Green", "Social", "National", "United", "Free",
    "Radical", "Christian", "Independent", "Workers'", "Farmers'", "Reform", "Popular", "Republican", "Civic",
    "Federal", "Regional", "Pirate", "Left", "Centre", "Patriotic",
)  # fmt: skip
PARTY_NOUNS = ("Party", "Alliance", "Union", "Movement", "Front", "League", "Coalition", "Congress", "Forum",
               "Bloc", "List", "Assembly")  # fmt: skip

INSULTS = (
    "liar", "hypocrite", "coward", "clown", "scoundrel", "bully", "traitor", "charlatan", "weasel",
    "buffoon", "gangster", "puppet", "fraud", "thug", "snake", "crook", "parasite", "windbag", "racist",
    "wacko", "dodgy", "guttersnipe", "blackguard", "rat", "jackass", "stool pigeon", "sook", "ignoramus",
    "muppet", "pillock", "git", "dingbat", "galah", "drongo", "sleazebag", "hooligan", "Judas", "Pinocchio",
    "menteur", "mentiroso", "kłamca", "tinpot dictator", "dimwit", "hack", "lackey", "quisling",
)  # fmt: skip
PROPS = ("shoe", "sandwich", "turnip", "rubber chicken", "lettuce", "brick", "order paper", "budget papers",
         "egg", "placard", "water bottle", "copy of the bill")  # fmt: skip
TOPIC_SUBJECTS = (
    "water", "fishing", "pension", "broadband", "railway", "mining", "rent", "grain", "coastal", "tobacco",
    "forestry", "airport", "dairy", "school", "metro", "salt", "privacy", "flood", "housing", "hospital",
    "carbon", "fuel", "ferry", "tariff", "wage", "childcare", "drought", "wind farm", "treaty", "language",
    "police", "prison", "border", "vaccine", "lottery", "stadium", "tunnel", "harbour", "port", "bank",
)  # fmt: skip
TOPIC_OBJECTS = ("bill", "levy", "quota", "freeze", "rollout", "subsidy", "licence", "cap", "duty", "sale",
                 "expansion", "reform", "inquiry", "report", "budget", "amendment", "scandal", "contract",
                 "tender", "referendum")  # fmt: skip
PORTFOLIOS = ("Finance", "Health", "Justice", "Defence", "Education", "Transport", "Housing", "Agriculture",
              "Fisheries", "Energy", "Immigration", "Foreign Affairs", "the Environment", "Labour", "Tourism",
              "Indigenous Affairs", "Veterans", "Trade")  # fmt: skip
PUBLISHERS = ("Hansard", "The Parliamentary Gazette", "Press Gallery Wire", "The Chamber Record",
              "Daily Bulletin", "Journal des débats", "Diario de Sesiones", "Stenogram Sejmu")  # fmt: skip
NONSENSE = (
    "qwzx plorb", "zzkj vvt", "xylophone marmalade", "asdfgh", "blorptastic snoodle", "frnk wplq",
    "hjkl hjkl", "quux wibble frobnicate", "mmmmmmm", "zqxj", "snorkel tapioca", "gribble vonk",
    "ptarmigan kumquat", "ffffff gggg", "wubba lubba", "klaatu barada", "vvxq zpp", "lorem ipsum dolor",
)  # fmt: skip
