#pragma once
// The three generated datasets the app offers without any download: shapes for image
// classification, movie reviews for sentiment, English-Italian phrases for translation.
#include "engine/builtin/english_italian_phrases.h"
#include "engine/builtin/sentiment_reviews.h"
#include "engine/builtin/shape_images.h"
