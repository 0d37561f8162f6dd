import Foundation

/// Language codes and names as other catalogues write them, to BCP 47 tags: ISO 639-2 and
/// 639-3 codes (calibre's `eng`, `fre`/`fra`) and English names (LibraryThing's "English").
///
/// BCP 47 takes a language's ISO 639-1 two-letter code where one exists, else its
/// three-letter code, so `eng` is `en`, `fre` and `fra` are `fr`, and `haw` (Hawaiian, which
/// has no two-letter code) stays `haw`. The tables are generated from ISO 639-2 as the
/// Debian iso-codes package gives it (`/usr/share/iso-codes/json/iso_639-2.json`): every
/// two-letter language, under its terminology and bibliographic codes, and the English
/// names of every language (collective codes such as "Bantu languages" aside).
enum LanguageCodes {
    /// The BCP 47 tag of an ISO 639-2 or 639-3 code (any case): its two-letter code where
    /// it has one, else the code itself in lower case; nil for text that is not three
    /// ASCII letters, and for the codes that name no language (`und` undetermined, `zxx`
    /// no linguistic content, `mul` multiple, `mis` uncoded).
    static func tag(forCode code: String) -> String? {
        let lower = code.lowercased()
        guard lower.count == 3, lower.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }) else { return nil }
        guard !["und", "zxx", "mul", "mis"].contains(lower) else { return nil }
        return twoLetter[lower] ?? lower
    }

    /// The BCP 47 tag of a language's English name as ISO 639-2 writes it ("English",
    /// "Spanish", "Castilian", "Greek, Modern (1453-)"), in any case; nil for a name the
    /// table does not have.
    static func tag(forName name: String) -> String? {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        return byName[key] ?? aliases[key]
    }

    /// Names that catalogues write for a language whose ISO 639-2 name is longer: "Greek"
    /// is "Greek, Modern (1453-)".
    private static let aliases: [String: String] = [
        "greek": "el", "modern greek": "el", "greek (modern)": "el", "ancient greek": "grc",
        "greek (ancient)": "grc", "old english": "ang", "middle english": "enm", "farsi": "fa",
        "old norse": "non", "old french": "fro", "middle french": "frm",
    ]

    /// The two-letter code of each three-letter code that has one.
    private static let twoLetter: [String: String] = [
        "aar": "aa", "abk": "ab", "afr": "af", "aka": "ak", "alb": "sq", "amh": "am", "ara": "ar",
        "arg": "an", "arm": "hy", "asm": "as", "ava": "av", "ave": "ae", "aym": "ay", "aze": "az",
        "bak": "ba", "bam": "bm", "baq": "eu", "bel": "be", "ben": "bn", "bih": "bh", "bis": "bi",
        "bod": "bo", "bos": "bs", "bre": "br", "bul": "bg", "bur": "my", "cat": "ca", "ces": "cs",
        "cha": "ch", "che": "ce", "chi": "zh", "chu": "cu", "chv": "cv", "cor": "kw", "cos": "co",
        "cre": "cr", "cym": "cy", "cze": "cs", "dan": "da", "deu": "de", "div": "dv", "dut": "nl",
        "dzo": "dz", "ell": "el", "eng": "en", "epo": "eo", "est": "et", "eus": "eu", "ewe": "ee",
        "fao": "fo", "fas": "fa", "fij": "fj", "fin": "fi", "fra": "fr", "fre": "fr", "fry": "fy",
        "ful": "ff", "geo": "ka", "ger": "de", "gla": "gd", "gle": "ga", "glg": "gl", "glv": "gv",
        "gre": "el", "grn": "gn", "guj": "gu", "hat": "ht", "hau": "ha", "heb": "he", "her": "hz",
        "hin": "hi", "hmo": "ho", "hrv": "hr", "hun": "hu", "hye": "hy", "ibo": "ig", "ice": "is",
        "ido": "io", "iii": "ii", "iku": "iu", "ile": "ie", "ina": "ia", "ind": "id", "ipk": "ik",
        "isl": "is", "ita": "it", "jav": "jv", "jpn": "ja", "kal": "kl", "kan": "kn", "kas": "ks",
        "kat": "ka", "kau": "kr", "kaz": "kk", "khm": "km", "kik": "ki", "kin": "rw", "kir": "ky",
        "kom": "kv", "kon": "kg", "kor": "ko", "kua": "kj", "kur": "ku", "lao": "lo", "lat": "la",
        "lav": "lv", "lim": "li", "lin": "ln", "lit": "lt", "ltz": "lb", "lub": "lu", "lug": "lg",
        "mac": "mk", "mah": "mh", "mal": "ml", "mao": "mi", "mar": "mr", "may": "ms", "mkd": "mk",
        "mlg": "mg", "mlt": "mt", "mon": "mn", "mri": "mi", "msa": "ms", "mya": "my", "nau": "na",
        "nav": "nv", "nbl": "nr", "nde": "nd", "ndo": "ng", "nep": "ne", "nld": "nl", "nno": "nn",
        "nob": "nb", "nor": "no", "nya": "ny", "oci": "oc", "oji": "oj", "ori": "or", "orm": "om",
        "oss": "os", "pan": "pa", "per": "fa", "pli": "pi", "pol": "pl", "por": "pt", "pus": "ps",
        "que": "qu", "roh": "rm", "ron": "ro", "rum": "ro", "run": "rn", "rus": "ru", "sag": "sg",
        "san": "sa", "sin": "si", "slk": "sk", "slo": "sk", "slv": "sl", "sme": "se", "smo": "sm",
        "sna": "sn", "snd": "sd", "som": "so", "sot": "st", "spa": "es", "sqi": "sq", "srd": "sc",
        "srp": "sr", "ssw": "ss", "sun": "su", "swa": "sw", "swe": "sv", "tah": "ty", "tam": "ta",
        "tat": "tt", "tel": "te", "tgk": "tg", "tgl": "tl", "tha": "th", "tib": "bo", "tir": "ti",
        "ton": "to", "tsn": "tn", "tso": "ts", "tuk": "tk", "tur": "tr", "twi": "tw", "uig": "ug",
        "ukr": "uk", "urd": "ur", "uzb": "uz", "ven": "ve", "vie": "vi", "vol": "vo", "wel": "cy",
        "wln": "wa", "wol": "wo", "xho": "xh", "yid": "yi", "yor": "yo", "zha": "za", "zho": "zh",
        "zul": "zu",
    ]

    /// The tag of each language's English name, lower-cased.
    private static let byName: [String: String] = [
        "abkhazian": "ab", "achinese": "ace", "acoli": "ach", "adangme": "ada", "adygei": "ady",
        "adyghe": "ady", "afar": "aa", "afrihili": "afh", "afrikaans": "af", "ainu": "ain",
        "akan": "ak", "akkadian": "akk", "albanian": "sq", "alemannic": "gsw", "aleut": "ale",
        "alsatian": "gsw", "amharic": "am", "angika": "anp", "arabic": "ar", "aragonese": "an",
        "arapaho": "arp", "arawak": "arw", "armenian": "hy", "aromanian": "rup",
        "arumanian": "rup", "assamese": "as", "asturian": "ast", "asturleonese": "ast",
        "avaric": "av", "avestan": "ae", "awadhi": "awa", "aymara": "ay", "azerbaijani": "az",
        "bable": "ast", "balinese": "ban", "baluchi": "bal", "bambara": "bm",
        "bantu (other)": "bnt", "basa": "bas", "bashkir": "ba", "basque": "eu", "bedawiyet": "bej",
        "beja": "bej", "belarusian": "be", "bemba": "bem", "bengali": "bn", "bhojpuri": "bho",
        "bihari languages": "bh", "bikol": "bik", "bilin": "byn", "bini": "bin", "bislama": "bi",
        "blin": "byn", "bliss": "zbl", "blissymbolics": "zbl", "blissymbols": "zbl",
        "bokmål, norwegian": "nb", "bosnian": "bs", "braj": "bra", "breton": "br",
        "buginese": "bug", "bulgarian": "bg", "buriat": "bua", "burmese": "my", "caddo": "cad",
        "castilian": "es", "catalan": "ca", "cebuano": "ceb", "central khmer": "km",
        "chagatai": "chg", "chamorro": "ch", "chechen": "ce", "cherokee": "chr", "chewa": "ny",
        "cheyenne": "chy", "chibcha": "chb", "chichewa": "ny", "chinese": "zh",
        "chinook jargon": "chn", "chipewyan": "chp", "choctaw": "cho", "chuang": "za",
        "church slavic": "cu", "church slavonic": "cu", "chuukese": "chk", "chuvash": "cv",
        "classical nepal bhasa": "nwc", "classical newari": "nwc", "classical syriac": "syc",
        "cook islands maori": "rar", "coptic": "cop", "cornish": "kw", "corsican": "co",
        "cree": "cr", "creek": "mus", "creoles and pidgins": "crp",
        "creoles and pidgins, english based": "cpe", "creoles and pidgins, french-based": "cpf",
        "creoles and pidgins, portuguese-based": "cpp", "crimean tatar": "crh",
        "crimean turkish": "crh", "croatian": "hr", "czech": "cs", "dakota": "dak", "danish": "da",
        "dargwa": "dar", "delaware": "del", "dene suline": "chp", "dhivehi": "dv", "dimili": "zza",
        "dimli": "zza", "dinka": "din", "divehi": "dv", "dogri": "doi", "dogrib": "dgr",
        "duala": "dua", "dutch": "nl", "dutch, middle (ca. 1050-1350)": "dum", "dyula": "dyu",
        "dzongkha": "dz", "eastern frisian": "frs", "edo": "bin", "efik": "efi",
        "egyptian (ancient)": "egy", "ekajuk": "eka", "elamite": "elx", "english": "en",
        "english, middle (1100-1500)": "enm", "english, old (ca. 450-1100)": "ang", "erzya": "myv",
        "esperanto": "eo", "estonian": "et", "ewe": "ee", "ewondo": "ewo", "fang": "fan",
        "fanti": "fat", "faroese": "fo", "fijian": "fj", "filipino": "fil", "finnish": "fi",
        "flemish": "nl", "fon": "fon", "french": "fr", "french, middle (ca. 1400-1600)": "frm",
        "french, old (842-ca. 1400)": "fro", "friulian": "fur", "fulah": "ff", "ga": "gaa",
        "gaelic": "gd", "galibi carib": "car", "galician": "gl", "ganda": "lg", "gayo": "gay",
        "gbaya": "gba", "geez": "gez", "georgian": "ka", "german": "de", "german, low": "nds",
        "german, middle high (ca. 1050-1500)": "gmh", "german, old high (ca. 750-1050)": "goh",
        "gikuyu": "ki", "gilbertese": "gil", "gondi": "gon", "gorontalo": "gor", "gothic": "got",
        "grebo": "grb", "greek, ancient (to 1453)": "grc", "greek, modern (1453-)": "el",
        "greenlandic": "kl", "guarani": "gn", "gujarati": "gu", "gwich'in": "gwi", "haida": "hai",
        "haitian": "ht", "haitian creole": "ht", "hausa": "ha", "hawaiian": "haw", "hebrew": "he",
        "herero": "hz", "hiligaynon": "hil", "hindi": "hi", "hiri motu": "ho", "hittite": "hit",
        "hmong": "hmn", "hungarian": "hu", "hupa": "hup", "iban": "iba", "icelandic": "is",
        "ido": "io", "igbo": "ig", "iloko": "ilo", "imperial aramaic (700-300 bce)": "arc",
        "inari sami": "smn", "indonesian": "id", "ingush": "inh",
        "interlingua (international auxiliary language association)": "ia", "interlingue": "ie",
        "inuktitut": "iu", "inupiaq": "ik", "irish": "ga", "irish, middle (900-1200)": "mga",
        "irish, old (to 900)": "sga", "italian": "it", "japanese": "ja", "javanese": "jv",
        "jingpho": "kac", "judeo-arabic": "jrb", "judeo-persian": "jpr", "kabardian": "kbd",
        "kabyle": "kab", "kachin": "kac", "kalaallisut": "kl", "kalmyk": "xal", "kamba": "kam",
        "kannada": "kn", "kanuri": "kr", "kapampangan": "pam", "kara-kalpak": "kaa",
        "karachay-balkar": "krc", "karelian": "krl", "kashmiri": "ks", "kashubian": "csb",
        "kawi": "kaw", "kazakh": "kk", "khasi": "kha", "khotanese": "kho", "kikuyu": "ki",
        "kimbundu": "kmb", "kinyarwanda": "rw", "kirdki": "zza", "kirghiz": "ky",
        "kirmanjki": "zza", "klingon": "tlh", "komi": "kv", "kongo": "kg", "konkani": "kok",
        "korean": "ko", "kosraean": "kos", "kpelle": "kpe", "kuanyama": "kj", "kumyk": "kum",
        "kurdish": "ku", "kurukh": "kru", "kutenai": "kut", "kwanyama": "kj", "kyrgyz": "ky",
        "ladino": "lad", "lahnda": "lah", "lamba": "lam", "lao": "lo", "latin": "la",
        "latvian": "lv", "leonese": "ast", "letzeburgesch": "lb", "lezghian": "lez",
        "limburgan": "li", "limburger": "li", "limburgish": "li", "lingala": "ln",
        "lithuanian": "lt", "lojban": "jbo", "low german": "nds", "low saxon": "nds",
        "lower sorbian": "dsb", "lozi": "loz", "luba-katanga": "lu", "luba-lulua": "lua",
        "luiseno": "lui", "lule sami": "smj", "lunda": "lun", "luo (kenya and tanzania)": "luo",
        "lushai": "lus", "luxembourgish": "lb", "macedo-romanian": "rup", "macedonian": "mk",
        "madurese": "mad", "magahi": "mag", "maithili": "mai", "makasar": "mak", "malagasy": "mg",
        "malay": "ms", "malayalam": "ml", "maldivian": "dv", "maltese": "mt", "manchu": "mnc",
        "mandar": "mdr", "mandingo": "man", "manipuri": "mni", "manx": "gv", "maori": "mi",
        "mapuche": "arn", "mapudungun": "arn", "marathi": "mr", "mari": "chm", "marshallese": "mh",
        "marwari": "mwr", "masai": "mas", "mende": "men", "mi'kmaq": "mic", "micmac": "mic",
        "minangkabau": "min", "mirandese": "mwl", "mohawk": "moh", "moksha": "mdf",
        "moldavian": "ro", "moldovan": "ro", "mong": "hmn", "mongo": "lol", "mongolian": "mn",
        "montenegrin": "cnr", "mossi": "mos", "n'ko": "nqo", "nauru": "na", "navaho": "nv",
        "navajo": "nv", "ndebele, north": "nd", "ndebele, south": "nr", "ndonga": "ng",
        "neapolitan": "nap", "nepal bhasa": "new", "nepali": "ne", "newari": "new", "nias": "nia",
        "niuean": "niu", "nogai": "nog", "norse, old": "non", "north ndebele": "nd",
        "northern frisian": "frr", "northern sami": "se", "northern sotho": "nso",
        "norwegian": "no", "norwegian bokmål": "nb", "norwegian nynorsk": "nn", "nuosu": "ii",
        "nyamwezi": "nym", "nyanja": "ny", "nyankole": "nyn", "nynorsk, norwegian": "nn",
        "nyoro": "nyo", "nzima": "nzi", "occidental": "ie", "occitan (post 1500)": "oc",
        "official aramaic (700-300 bce)": "arc", "oirat": "xal", "ojibwa": "oj",
        "old bulgarian": "cu", "old church slavonic": "cu", "old newari": "nwc",
        "old slavonic": "cu", "oriya": "or", "oromo": "om", "osage": "osa", "ossetian": "os",
        "ossetic": "os", "pahlavi": "pal", "palauan": "pau", "pali": "pi", "pampanga": "pam",
        "pangasinan": "pag", "panjabi": "pa", "papiamento": "pap", "pashto": "ps", "pedi": "nso",
        "persian": "fa", "persian, old (ca. 600-400 b.c.)": "peo", "phoenician": "phn",
        "pilipino": "fil", "pohnpeian": "pon", "polish": "pl", "portuguese": "pt",
        "provençal": "oc", "provençal, old (to 1500)": "pro", "punjabi": "pa", "pushto": "ps",
        "quechua": "qu", "rajasthani": "raj", "rapanui": "rap", "rarotongan": "rar",
        "romanian": "ro", "romansh": "rm", "romany": "rom", "rundi": "rn", "russian": "ru",
        "sakan": "kho", "samaritan aramaic": "sam", "samoan": "sm", "sandawe": "sad",
        "sango": "sg", "sanskrit": "sa", "santali": "sat", "sardinian": "sc", "sasak": "sas",
        "saxon, low": "nds", "scots": "sco", "scottish gaelic": "gd", "selkup": "sel",
        "sepedi": "nso", "serbian": "sr", "serer": "srr", "shan": "shn", "shona": "sn",
        "sichuan yi": "ii", "sicilian": "scn", "sidamo": "sid", "sign languages": "sgn",
        "siksika": "bla", "sindhi": "sd", "sinhala": "si", "sinhalese": "si", "skolt sami": "sms",
        "slave (athapascan)": "den", "slovak": "sk", "slovenian": "sl", "sogdian": "sog",
        "somali": "so", "soninke": "snk", "sotho, southern": "st",
        "south american indian (other)": "sai", "south ndebele": "nr", "southern altai": "alt",
        "southern sami": "sma", "spanish": "es", "sranan tongo": "srn",
        "standard moroccan tamazight": "zgh", "sukuma": "suk", "sumerian": "sux",
        "sundanese": "su", "susu": "sus", "swahili": "sw", "swati": "ss", "swedish": "sv",
        "swiss german": "gsw", "syriac": "syr", "tagalog": "tl", "tahitian": "ty", "tajik": "tg",
        "tamashek": "tmh", "tamil": "ta", "tatar": "tt", "telugu": "te", "tereno": "ter",
        "tetum": "tet", "thai": "th", "tibetan": "bo", "tigre": "tig", "tigrinya": "ti",
        "timne": "tem", "tiv": "tiv", "tlhingan-hol": "tlh", "tlingit": "tli", "tok pisin": "tpi",
        "tokelau": "tkl", "tonga (nyasa)": "tog", "tonga (tonga islands)": "to",
        "tsimshian": "tsi", "tsonga": "ts", "tswana": "tn", "tumbuka": "tum", "turkish": "tr",
        "turkish, ottoman (1500-1928)": "ota", "turkmen": "tk", "tuvalu": "tvl", "tuvinian": "tyv",
        "twi": "tw", "udmurt": "udm", "ugaritic": "uga", "uighur": "ug", "ukrainian": "uk",
        "umbundu": "umb", "upper sorbian": "hsb", "urdu": "ur", "uyghur": "ug", "uzbek": "uz",
        "vai": "vai", "valencian": "ca", "venda": "ve", "vietnamese": "vi", "volapük": "vo",
        "votic": "vot", "walamo": "wal", "walloon": "wa", "waray": "war", "washo": "was",
        "welsh": "cy", "western frisian": "fy", "wolof": "wo", "xhosa": "xh", "yakut": "sah",
        "yao": "yao", "yapese": "yap", "yiddish": "yi", "yoruba": "yo", "zapotec": "zap",
        "zaza": "zza", "zazaki": "zza", "zenaga": "zen", "zhuang": "za", "zulu": "zu",
        "zuni": "zun",
    ]
}
