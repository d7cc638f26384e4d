package io.quarry.sample;

import java.util.List;

/** The word lists and geography the sample generator combines into names, titles, places and sentences. */
final class Vocabulary {
    private Vocabulary() {
    }

    static final List<String> FIRST_NAMES = List.of(
            "Aaliyah", "Aaron", "Abigail", "Adam", "Adrian", "Aiden", "Alan", "Albert", "Alexa", "Alice", "Alma",
            "Amara", "Amelia", "Andre", "Angela", "Anita", "Ann", "Arthur", "Audrey", "Ava", "Barbara", "Beatrice",
            "Benjamin", "Bernard", "Bethany", "Brandon", "Brenda", "Bruce", "Caleb", "Camila", "Carl", "Carmen",
            "Caroline", "Cecilia", "Charles", "Chloe", "Christopher", "Claire", "Clara", "Cody", "Colin", "Connor",
            "Cynthia", "Daisy", "Daniel", "Darius", "David", "Deborah", "Dennis", "Diana", "Dominic", "Dorothy",
            "Dylan", "Edgar", "Edith", "Edward", "Eleanor", "Elena", "Elijah", "Elise", "Emily", "Emmett", "Eric",
            "Esther", "Ethan", "Eva", "Felix", "Fiona", "Frances", "Frank", "Gabriel", "Gavin", "Georgia", "Gerald",
            "Gloria", "Grace", "Hannah", "Harold", "Harper", "Hazel", "Hector", "Helen", "Henry", "Hugo", "Ian",
            "Imani", "Irene", "Isaac", "Isabel", "Ivy", "Jack", "Jacob", "Jade", "James", "Jasmine", "Jason",
            "Javier", "Jenna", "Jerome", "Jessica", "Joan", "Joel", "Jordan", "Joseph", "Joy", "Julia", "Julian",
            "Kai", "Karen", "Katherine", "Keith", "Kelly", "Kevin", "Kiara", "Laura", "Lauren", "Leah", "Leo",
            "Leon", "Lila", "Lillian", "Logan", "Lucas", "Lucy", "Luis", "Luna", "Mabel", "Madison", "Malcolm",
            "Marcus", "Margaret", "Maria", "Marvin", "Mason", "Matteo", "Maya", "Megan", "Mia", "Miles", "Miriam",
            "Molly", "Nadia", "Naomi", "Nathan", "Neil", "Nicole", "Noah", "Nora", "Oliver", "Olivia", "Omar",
            "Oscar", "Owen", "Pamela", "Patrick", "Paula", "Peter", "Philip", "Priya", "Quinn", "Rachel", "Ramon",
            "Raymond", "Rebecca", "Riley", "Robert", "Rosa", "Ruby", "Ryan", "Samantha", "Samuel", "Sara", "Sebastian",
            "Sienna", "Simon", "Sofia", "Stella", "Stephen", "Susan", "Sylvia", "Tanya", "Teresa", "Theodore",
            "Thomas", "Tiffany", "Tobias", "Trevor", "Valerie", "Vanessa", "Victor", "Vincent", "Violet", "Walter",
            "Wendy", "Wesley", "William", "Xavier", "Yara", "Yusuf", "Zachary", "Zoe");

    static final List<String> LAST_NAMES = List.of(
            "Abbott", "Acosta", "Adams", "Alvarez", "Anderson", "Armstrong", "Bailey", "Baker", "Barnes", "Bartlett",
            "Beck", "Bennett", "Bishop", "Blackwell", "Bradley", "Brennan", "Brooks", "Bryant", "Burke", "Caldwell",
            "Campbell", "Carlson", "Carter", "Castillo", "Chambers", "Chang", "Chavez", "Clarke", "Coleman", "Collins",
            "Conway", "Cooper", "Crawford", "Cruz", "Curtis", "Dalton", "Daniels", "Delgado", "Dixon", "Donovan",
            "Douglas", "Doyle", "Duncan", "Dunn", "Ellis", "Emerson", "Erickson", "Estrada", "Farrell", "Fields",
            "Fischer", "Fleming", "Fletcher", "Flores", "Ford", "Foster", "Fowler", "Franklin", "Gallagher", "Garcia",
            "Garner", "Gibson", "Gilbert", "Goldberg", "Gonzalez", "Gordon", "Graham", "Grant", "Graves", "Gregory",
            "Griffin", "Hale", "Hamilton", "Hansen", "Harper", "Harrington", "Hartman", "Hayes", "Henderson",
            "Herrera", "Hoffman", "Holland", "Holt", "Hopkins", "Howell", "Hughes", "Ingram", "Jacobs", "Jensen",
            "Jimenez", "Johnston", "Kaplan", "Keller", "Kennedy", "Kim", "Klein", "Knight", "Kowalski", "Lambert",
            "Lancaster", "Larsen", "Lawson", "Lindqvist", "Lopez", "Lowe", "Lynch", "MacDonald", "Maddox", "Marsh",
            "Martinez", "Mathis", "McCarthy", "Medina", "Mendoza", "Meyer", "Mitchell", "Montgomery", "Moreno",
            "Morrison", "Murphy", "Nakamura", "Nash", "Newman", "Nguyen", "Nolan", "Novak", "Oconnor", "Olsen",
            "Ortega", "Owens", "Palmer", "Parker", "Patel", "Pearson", "Perry", "Peterson", "Pham", "Porter", "Powell",
            "Quinn", "Ramirez", "Reed", "Reyes", "Richards", "Riley", "Rivera", "Robinson", "Rojas", "Russo",
            "Salazar", "Sandoval", "Schmidt", "Schneider", "Shaw", "Sherman", "Silva", "Singh", "Sloan", "Sutton",
            "Tanaka", "Thornton", "Torres", "Tucker", "Turner", "Vargas", "Vaughn", "Wagner", "Walsh", "Warren",
            "Watkins", "Weaver", "Webb", "Wheeler", "Whitaker", "Wolfe", "Wong", "Yamamoto", "Young", "Zimmerman");

    static final List<String> PRODUCT_ADJECTIVES = List.of(
            "Aerodynamic", "Awesome", "Compact", "Deluxe", "Durable", "Elegant", "Enormous", "Ergonomic", "Fantastic",
            "Gorgeous", "Handcrafted", "Heavy-Duty", "Incredible", "Intelligent", "Lightweight", "Mediocre", "Modern",
            "Practical", "Refined", "Rustic", "Sleek", "Small", "Sturdy", "Synergistic", "Vintage");

    static final List<String> PRODUCT_MATERIALS = List.of(
            "Aluminum", "Bamboo", "Bronze", "Concrete", "Copper", "Cotton", "Granite", "Iron", "Leather", "Linen",
            "Marble", "Paper", "Plastic", "Rubber", "Silk", "Steel", "Wool", "Wooden");

    static final List<String> PRODUCT_NOUNS = List.of(
            "Bag", "Bench", "Bottle", "Bowl", "Car", "Chair", "Clock", "Coat", "Computer", "Gloves", "Hat", "Jacket",
            "Keyboard", "Knife", "Lamp", "Mirror", "Pants", "Plate", "Shirt", "Shoes", "Table", "Toucan", "Wallet",
            "Watch");

    static final List<String> CATEGORIES = List.of("Doohickey", "Gadget", "Gizmo", "Widget");

    static final List<String> COMPANY_SUFFIXES = List.of("Group", "Inc", "LLC", "and Sons", "Industries", "Co",
            "Supply", "Works", "Trading", "Manufacturing");

    static final List<String> PEOPLE_SOURCES = List.of("Affiliate", "Facebook", "Google", "Organic", "Twitter");

    static final List<String> MAIL_DOMAINS = List.of("gmail.com", "yahoo.com", "hotmail.com", "outlook.com",
            "icloud.com", "aol.com", "protonmail.com", "mail.com");

    static final List<String> STREET_NAMES = List.of(
            "Ash", "Aspen", "Birch", "Bluebird", "Briar", "Canyon", "Cedar", "Center", "Cherry", "Chestnut", "Church",
            "College", "Cottonwood", "Creek", "Dogwood", "Elm", "Forest", "Franklin", "Garden", "Harbor", "Hickory",
            "Highland", "Hill", "Jackson", "Jefferson", "Juniper", "Lake", "Laurel", "Lincoln", "Madison", "Magnolia",
            "Main", "Maple", "Meadow", "Mill", "Mountain", "Oak", "Orchard", "Park", "Pine", "Poplar", "Prairie",
            "Ridge", "River", "Sunset", "Sycamore", "Valley", "Walnut", "Washington", "Willow");

    static final List<String> STREET_SUFFIXES = List.of("Street", "Avenue", "Road", "Lane", "Drive", "Court",
            "Boulevard", "Way", "Place", "Terrace", "Circle", "Trail", "Parkway");

    static final List<String> CITY_STEMS = List.of(
            "Ash", "Bay", "Bright", "Brook", "Cedar", "Cherry", "Clear", "Crystal", "Deer", "Eagle", "Elm", "Fair",
            "Fox", "Glen", "Gold", "Green", "Hazel", "High", "Iron", "Lake", "Maple", "Marble", "Mill", "Oak",
            "Orchard", "Pine", "Pleasant", "Red", "River", "Rock", "Rose", "Sand", "Shady", "Silver", "Spring",
            "Stone", "Sun", "West", "White", "Willow", "Wolf");

    static final List<String> CITY_SUFFIXES = List.of("field", "ville", "ton", "wood", "dale", "burg", "ford",
            "port", "view", "land", "brook", "haven", "side", "mont", "crest", "vale", "bury", "water");

    /**
     * A US state (or DC): postal code, rough population centre and spread in degrees, state-level sales tax rate,
     * relative population weight and the first digit of its ZIP codes.
     */
    record State(String code, double latitude, double longitude, double spread, double taxRate, double weight,
                 char zipDigit) {
    }

    static final List<State> STATES = List.of(
            new State("AL", 32.8, -86.8, 1.5, 0.04, 5, '3'),
            new State("AK", 61.4, -150.0, 1.5, 0.0, 0.7, '9'),
            new State("AZ", 33.6, -112.0, 1.4, 0.056, 7, '8'),
            new State("AR", 34.9, -92.4, 1.3, 0.065, 3, '7'),
            new State("CA", 36.0, -119.6, 2.2, 0.0725, 39, '9'),
            new State("CO", 39.4, -105.2, 1.3, 0.029, 6, '8'),
            new State("CT", 41.6, -72.7, 0.4, 0.0635, 3.6, '0'),
            new State("DE", 39.0, -75.5, 0.3, 0.0, 1, '1'),
            new State("DC", 38.9, -77.0, 0.05, 0.06, 0.7, '2'),
            new State("FL", 28.1, -81.6, 1.8, 0.06, 22, '3'),
            new State("GA", 33.0, -83.6, 1.4, 0.04, 11, '3'),
            new State("HI", 21.3, -157.9, 0.3, 0.04, 1.4, '9'),
            new State("ID", 43.6, -115.5, 1.2, 0.06, 1.9, '8'),
            new State("IL", 40.8, -88.9, 1.6, 0.0625, 12.5, '6'),
            new State("IN", 39.9, -86.3, 1.2, 0.07, 6.8, '4'),
            new State("IA", 41.9, -93.1, 1.3, 0.06, 3.2, '5'),
            new State("KS", 38.5, -97.5, 1.5, 0.065, 2.9, '6'),
            new State("KY", 37.8, -85.3, 1.2, 0.06, 4.5, '4'),
            new State("LA", 30.9, -91.9, 1.2, 0.0445, 4.6, '7'),
            new State("ME", 44.7, -69.4, 1.0, 0.055, 1.4, '0'),
            new State("MD", 39.1, -76.8, 0.5, 0.06, 6.2, '2'),
            new State("MA", 42.3, -71.6, 0.5, 0.0625, 7, '0'),
            new State("MI", 42.9, -84.6, 1.5, 0.06, 10, '4'),
            new State("MN", 45.3, -93.9, 1.5, 0.06875, 5.7, '5'),
            new State("MS", 32.7, -89.7, 1.3, 0.07, 2.9, '3'),
            new State("MO", 38.5, -92.4, 1.5, 0.04225, 6.2, '6'),
            new State("MT", 46.9, -110.4, 1.8, 0.0, 1.1, '5'),
            new State("NE", 41.1, -97.8, 1.5, 0.055, 2, '6'),
            new State("NV", 36.8, -116.5, 1.5, 0.0685, 3.2, '8'),
            new State("NH", 43.4, -71.6, 0.5, 0.0, 1.4, '0'),
            new State("NJ", 40.2, -74.5, 0.5, 0.06625, 9.3, '0'),
            new State("NM", 34.8, -106.2, 1.5, 0.04875, 2.1, '8'),
            new State("NY", 42.2, -74.9, 1.3, 0.04, 19.6, '1'),
            new State("NC", 35.6, -79.4, 1.4, 0.0475, 10.7, '2'),
            new State("ND", 47.5, -100.5, 1.4, 0.05, 0.8, '5'),
            new State("OH", 40.3, -82.8, 1.3, 0.0575, 11.8, '4'),
            new State("OK", 35.6, -97.0, 1.3, 0.045, 4, '7'),
            new State("OR", 44.6, -122.1, 1.3, 0.0, 4.2, '9'),
            new State("PA", 40.6, -77.2, 1.3, 0.06, 13, '1'),
            new State("RI", 41.7, -71.5, 0.15, 0.07, 1.1, '0'),
            new State("SC", 33.9, -80.9, 1.1, 0.06, 5.3, '2'),
            new State("SD", 44.3, -99.4, 1.5, 0.042, 0.9, '5'),
            new State("TN", 35.8, -86.4, 1.2, 0.07, 7, '3'),
            new State("TX", 31.2, -97.6, 2.5, 0.0625, 30, '7'),
            new State("UT", 40.4, -111.9, 1.0, 0.061, 3.4, '8'),
            new State("VT", 44.0, -72.7, 0.5, 0.06, 0.6, '0'),
            new State("VA", 37.8, -78.2, 1.2, 0.053, 8.7, '2'),
            new State("WA", 47.4, -121.6, 1.2, 0.065, 7.8, '9'),
            new State("WV", 38.6, -80.6, 0.9, 0.06, 1.8, '2'),
            new State("WI", 44.3, -89.6, 1.3, 0.05, 5.9, '5'),
            new State("WY", 42.8, -107.3, 1.5, 0.04, 0.6, '8'));

    /** A country of SaaS accounts: ISO 3166 alpha-2 code, rough centre and spread in degrees, relative weight. */
    record Country(String code, double latitude, double longitude, double spread, double weight) {
    }

    static final List<Country> COUNTRIES = List.of(
            new Country("US", 38.5, -95.0, 8.0, 40),
            new Country("CA", 46.5, -79.0, 4.0, 6),
            new Country("GB", 52.5, -1.5, 1.5, 8),
            new Country("DE", 51.0, 10.0, 1.8, 7),
            new Country("FR", 46.8, 2.3, 2.0, 5),
            new Country("NL", 52.2, 5.3, 0.5, 3),
            new Country("SE", 59.3, 16.5, 2.0, 2),
            new Country("ES", 40.3, -3.7, 2.0, 3),
            new Country("IT", 43.0, 12.5, 2.0, 3),
            new Country("IE", 53.3, -7.5, 0.8, 1.5),
            new Country("PL", 52.0, 19.3, 1.5, 2),
            new Country("IN", 21.0, 78.0, 5.0, 5),
            new Country("JP", 36.0, 138.5, 2.0, 3),
            new Country("SG", 1.35, 103.8, 0.08, 1.5),
            new Country("AU", -33.0, 147.0, 4.0, 4),
            new Country("NZ", -40.0, 174.5, 2.0, 1),
            new Country("BR", -20.0, -46.0, 4.0, 3),
            new Country("MX", 20.5, -100.0, 3.0, 2),
            new Country("ZA", -28.5, 26.0, 3.0, 1));

    static final List<String> ACCOUNT_SOURCES = List.of("Facebook", "Google", "Invite", "Organic", "Twitter");

    static final List<String> PLANS = List.of("Basic", "Business", "Premium");

    static final List<String> BUSINESS_WORDS = List.of("labs", "works", "tech", "digital", "studio", "partners",
            "systems", "analytics", "cloud", "media");

    static final List<String> PAGE_PATHS = List.of("", "pricing", "features", "docs", "docs/getting-started", "blog",
            "about", "contact", "signup", "login", "dashboard", "settings", "settings/billing", "integrations",
            "help", "changelog");

    static final List<String> BUTTON_LABELS = List.of("Sign Up", "Log In", "Start Trial", "Upgrade Plan",
            "Contact Sales", "Learn More", "Download Report", "Invite Teammates", "Add Seats", "Export CSV");

    static final List<String> FEEDBACK_LABELS = List.of("Very unsatisfied", "Unsatisfied", "Neutral", "Satisfied",
            "Very satisfied");

    /** Review sentences by sentiment; {noun}, {material} and {relative} are filled in from the product and chance. */
    static final List<String> PRAISE = List.of(
            "This {noun} exceeded my expectations.",
            "Really happy with the {material} finish.",
            "Arrived quickly and works exactly as described.",
            "My {relative} loves it.",
            "Would definitely buy again.",
            "Solid build quality for the price.",
            "I use it every single day.",
            "Looks even better in person.",
            "Best {noun} I have owned so far.",
            "Five minutes out of the box and it was ready to go.");

    static final List<String> LUKEWARM = List.of(
            "It does the job, nothing more.",
            "Decent for the price, but I expected a bit more.",
            "The {material} is fine, although the color was off.",
            "Took a while to arrive.",
            "Not bad, not great.",
            "My {relative} thinks it is just okay.",
            "Instructions could be clearer.",
            "Works, but feels a little flimsy.");

    static final List<String> COMPLAINTS = List.of(
            "Broke after two weeks.",
            "Not worth the money.",
            "The {material} feels cheap.",
            "Arrived damaged and support never answered.",
            "Smaller than the pictures suggest.",
            "I returned it the next day.",
            "My {relative} refused to use it.",
            "Would not recommend this {noun} to anyone.");

    static final List<String> RELATIVES = List.of("wife", "husband", "son", "daughter", "mom", "dad", "partner",
            "roommate", "grandmother", "neighbor");

    /** Product-feedback sentences by sentiment. */
    static final List<String> FEEDBACK_POSITIVE = List.of(
            "The dashboards save our team hours every week.",
            "Setup was painless and support answered within the hour.",
            "We rolled it out to the whole company without any training.",
            "The new reporting features are exactly what we needed.",
            "Great value for the number of seats we have.",
            "Love how fast the search is.");

    static final List<String> FEEDBACK_NEUTRAL = List.of(
            "It works, but the settings page is hard to find.",
            "Would be nice to have more export formats.",
            "Pricing is fair, though the Business plan feels limited.",
            "Onboarding took longer than we planned.",
            "The mobile experience could be better.");

    static final List<String> FEEDBACK_NEGATIVE = List.of(
            "Too expensive for what we actually use.",
            "We hit performance problems with larger reports.",
            "Billing charged us for seats we had removed.",
            "Support took days to reply to a critical issue.",
            "Missing the integrations our team depends on.",
            "We are moving to a different tool next quarter.");
}
