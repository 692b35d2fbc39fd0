/// The WMO weather interpretation codes Open-Meteo reports (`weather_code`), and the OpenWeather condition each
/// one reads as: the `main` group word, the English description and the icon number (`d`/`n` is added from
/// `is_day`). The table is documented in docs/diary-api.md; OpenWeather's own groups and icons are at
/// openweathermap.org/weather-conditions.
enum WMOWeatherCode: Int, CaseIterable, Sendable {
    case clearSky = 0, mainlyClear = 1, partlyCloudy = 2, overcast = 3
    case fog = 45, depositingRimeFog = 48
    case lightDrizzle = 51, moderateDrizzle = 53, denseDrizzle = 55
    case lightFreezingDrizzle = 56, denseFreezingDrizzle = 57
    case slightRain = 61, moderateRain = 63, heavyRain = 65
    case lightFreezingRain = 66, heavyFreezingRain = 67
    case slightSnowFall = 71, moderateSnowFall = 73, heavySnowFall = 75, snowGrains = 77
    case slightRainShowers = 80, moderateRainShowers = 81, violentRainShowers = 82
    case slightSnowShowers = 85, heavySnowShowers = 86
    case thunderstorm = 95, thunderstormWithSlightHail = 96, thunderstormWithHeavyHail = 99

    /// OpenWeather's `main`, `description` and icon number for this code.
    var openWeatherCondition: (main: String, description: String, icon: String) {
        switch self {
        case .clearSky: ("Clear", "clear sky", "01")
        case .mainlyClear: ("Clouds", "few clouds", "02")
        case .partlyCloudy: ("Clouds", "scattered clouds", "03")
        case .overcast: ("Clouds", "overcast clouds", "04")
        case .fog: ("Fog", "fog", "50")
        case .depositingRimeFog: ("Fog", "freezing fog", "50")
        case .lightDrizzle: ("Drizzle", "light intensity drizzle", "09")
        case .moderateDrizzle: ("Drizzle", "drizzle", "09")
        case .denseDrizzle: ("Drizzle", "heavy intensity drizzle", "09")
        case .lightFreezingDrizzle: ("Drizzle", "light freezing drizzle", "13")
        case .denseFreezingDrizzle: ("Drizzle", "freezing drizzle", "13")
        case .slightRain: ("Rain", "light rain", "10")
        case .moderateRain: ("Rain", "moderate rain", "10")
        case .heavyRain: ("Rain", "heavy intensity rain", "10")
        case .lightFreezingRain: ("Rain", "light freezing rain", "13")
        case .heavyFreezingRain: ("Rain", "freezing rain", "13")
        case .slightSnowFall: ("Snow", "light snow", "13")
        case .moderateSnowFall: ("Snow", "snow", "13")
        case .heavySnowFall: ("Snow", "heavy snow", "13")
        case .snowGrains: ("Snow", "snow grains", "13")
        case .slightRainShowers: ("Rain", "light intensity shower rain", "09")
        case .moderateRainShowers: ("Rain", "shower rain", "09")
        case .violentRainShowers: ("Rain", "heavy intensity shower rain", "09")
        case .slightSnowShowers: ("Snow", "light shower snow", "13")
        case .heavySnowShowers: ("Snow", "heavy shower snow", "13")
        case .thunderstorm: ("Thunderstorm", "thunderstorm", "11")
        case .thunderstormWithSlightHail: ("Thunderstorm", "thunderstorm with slight hail", "11")
        case .thunderstormWithHeavyHail: ("Thunderstorm", "thunderstorm with heavy hail", "11")
        }
    }
}
