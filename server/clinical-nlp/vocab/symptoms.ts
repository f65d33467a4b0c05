/**
 * Presenting complaints: the name a note uses, and the lay and clinical ways patients and doctors say it.
 *
 * One complaint a line: name | other ways of saying it (comma separated)
 */
const TABLE = `
fever|temperature,evening fever,feverish,pyrexia,high temperature,febrile,feverishness
evening rise of temperature|evening rise of fever,evening rise
chills|rigors,chills and rigors,shivering
cough|coughing
sputum|expectoration,phlegm,sputum production
cold|common cold,coryza
running nose|rhinorrhoea,rhinorrhea,watery nasal discharge
runny nose|runny nose
nasal discharge|nasal discharge
nasal congestion|stuffy nose,congested nose,congestion
stuffiness|stuffy
nasal drainage|nose drainage
postnasal drip|post nasal drip,postnasal drainage
sinus pressure|sinus pressure,pressure in sinuses,sinus pain
nasal blockage|blocked nose,nose block,nasal obstruction
sneezing|sneezes,sneeze
sore throat|throat irritation,scratchy throat,throat ache,painful throat
throat pain|pain in throat
painful swallowing|pain on swallowing,swallowing is painful,pain while swallowing,odynophagia,painful to swallow
difficulty swallowing|dysphagia,trouble swallowing,difficulty in swallowing,food sticking
hoarseness of voice|hoarseness,voice is hoarse,change in voice,voice change,hoarse
hoarse voice|hoarse voice
paroxysmal nocturnal dyspnoea|pnd,paroxysmal nocturnal dyspnea
breathlessness|difficulty breathing,difficulty in breathing,dyspnoea,dyspnea,breathing difficulty,trouble breathing,breathing problem,breathless
shortness of breath|short of breath,sob
wheezing|whistling sound in chest
wheeze|wheeze
noisy breathing|noisy breathing,stridor
chest pain|pain in chest,chest discomfort
chest tightness|tightness in chest
chest heaviness|heaviness in chest
palpitations|palpitation,racing heart,heart racing,fluttering in chest
headache|head ache,pain in head,head pain,heaviness of head,head heaviness
giddiness|giddy,reeling
dizziness|dizzy
lightheadedness|light headedness,lightheaded,light headed
unsteadiness|unsteady,off balance,loss of balance,difficulty keeping balance,difficulty with balance,imbalance
vertigo|spinning sensation
fainting|syncope,blackout,blackouts,passed out,loss of consciousness
seizure|fits,fit,convulsion,convulsions,seizures,jerking of limbs,jerky movements,jerking,epileptic attack
abdominal pain|pain in abdomen,pain abdomen,stomach ache,stomachache,abdomen pain
abdominal cramps|abdominal cramps
epigastric pain|upper abdominal pain,pain in upper abdomen,epigastric discomfort
acidity|hyperacidity,acid reflux,burning in chest,sour burps,sour belching
heartburn|heartburn
acid regurgitation|regurgitation
burping|belching,burps,eructation
bloating|gas,flatulence,abdominal distension,abdominal fullness,gas trouble
nausea|nauseated,nauseous,feeling like vomiting,urge to vomit
vomiting|vomited,vomit,vomits,vomitings,emesis,throwing up,threw up
loose stools|loose motions,diarrhoea,diarrhea,watery stools,loose stool,watery diarrhoea,frequent stools,loose motion
constipation|not passing stools,difficulty passing stools
blood in stools|bleeding per rectum,blood in stool,rectal bleeding,bloody stools
black stools|melaena,melena,tarry stools
loss of appetite|not eating properly,anorexia,no appetite,appetite loss
poor appetite|not eating well
decreased appetite|reduced appetite,appetite reduced,appetite decreased
weight loss|loss of weight,losing weight,weight reduction unintentional
weight gain|gaining weight,increase in weight
fatigue|lethargy,exhaustion
tiredness|tiredness all the time
weakness|generalised weakness,generalized weakness
easy fatigability|easy fatiguability
easy fatigue|easy fatigue
irritability|irritable,irritated,anger outbursts
loss of enjoyment|no enjoyment,not enjoyable,nothing enjoyable,not enjoying anything
low mood|sadness,depressed mood,hopelessness
mood swings|mood changes,mood swing
tearfulness|tearful,crying spells
difficulty concentrating|poor concentration,trouble concentrating,impaired concentration
shakiness|shaky,feeling shaky
photophobia|sensitivity to light,light sensitivity
anxiety|anxiety
excessive worry|worry,excessive worrying
difficulty falling asleep|can't fall asleep,cannot fall asleep,cant fall asleep,trouble falling asleep,unable to fall asleep,difficulty in falling asleep
insomnia|sleeplessness
inability to sleep|not able to sleep,unable to sleep,cannot sleep,can't sleep,cant sleep,poor sleep,disturbed sleep,lack of sleep,difficulty sleeping,trouble sleeping
snoring|snores,snore
body aches|body ache,body pain,bodyache,body pains,aches
muscle aches|myalgia,muscle ache,muscle pain,muscle pains,aching muscles
joint pain|joint pains,arthralgia,pain in joints,pain in the joints,joints pain
back pain|backache,back ache,pain in back
low back pain|lower back pain,pain in lower back,lumbar pain
neck pain|pain in neck,neck ache,stiff neck,neck stiffness pain
shoulder pain|pain in shoulder
knee pain|pain in knee,pain in knees,knee pains
heel pain|pain in heel,pain in the heel
leg pain|pain in leg,pain in legs,pain in lower limbs
calf pain|pain in calf,pain in the calf
ear pain|earache,ear ache,otalgia,pain in ear,pain in the ear
ear discharge|discharge from ear,otorrhoea,otorrhea,pus from ear
reduced hearing|decreased hearing,hearing loss,difficulty hearing,loss of hearing,impaired hearing
ringing in ears|tinnitus,buzzing in ears,noise in ears
tooth pain|toothache,tooth ache,dental pain,pain in tooth,pain in teeth
eye pain|pain in eye,pain in eyes
redness of eyes|red eye,red eyes,eye redness,redness in eyes
watering of eyes|eye watering,tearing
watery eyes|watery eye
itching of eyes|itchy eyes,eye itching
blurring of vision|diminished vision,decreased vision,vision changes,visual disturbance
blurred vision|vision blurred,vision is blurred,vision blurry,vision is blurry,vision has been blurry,vision has been blurred,vision went blurry
blurry vision|blurry vision
facial pain|pain in face,face pain
puffiness of face|facial puffiness,puffy face,swelling of face,facial swelling,puffiness,face is puffy,puffy eyes
swelling of feet|pedal oedema,pedal edema,swollen feet,oedema feet,swelling in feet
swelling of legs|leg swelling
ankle swelling|swollen ankles,ankles swollen,ankle swollen,ankles swell,ankles swell up,ankle swells,ankles puffy,puffy ankles
swelling|swollen,oedema,edema
burning micturition|burning while passing urine,burning urination,pain while passing urine,burning during urination,burning sensation while passing urine
burning on urination|burning on urination
dysuria|painful urination
urinary frequency|frequency of urination,increased frequency of urination,increased urinary frequency,increased frequency,increased frequency of micturition,frequent micturition,passing urine frequently,frequent urination
increased urination|polyuria,passing more urine
nocturia|passing urine at night,waking up at night to urinate
frothy urine|foamy urine,froth in urine
blood in urine|haematuria,hematuria,red urine
decreased urine output|reduced urine output,less urine,oliguria
vaginal discharge|white discharge,leucorrhoea,leukorrhea,discharge per vaginum,pv discharge
genital itching|itching in the private part,itching in private part,itching in private parts,itching in the private parts,vulval itching,itching down there,genital itch,private part itching
perianal itching|itching around anus,anal itching,itching in bottom,scratching her bottom,scratching his bottom,scratching bottom,itching at the bottom,pruritus ani
painful periods|dysmenorrhoea,dysmenorrhea,menstrual cramps,period pain
heavy menstrual bleeding|heavy periods,menorrhagia,excessive bleeding during periods
irregular periods|irregular menses,irregular cycles,irregular menstruation
missed periods|missed period,amenorrhoea,amenorrhea,no periods
itching|pruritus,itch,itchiness
generalised itching|generalized itching,itching all over
rash|skin rash,rashes,eruption,red spots,spots on skin
blisters|vesicles,water filled blisters,fluid filled blisters,blister
patches|patch,scaly patches,white patches,red patches,dark patches
hair fall|hair loss,loss of hair,falling hair
dandruff|dandruff
scalp flaking|flaking of scalp,flaking of the scalp
acne|acne vulgaris
pimples|pimples
lump|lump
numbness|loss of sensation,decreased sensation
tingling|pins and needles,paraesthesia,paresthesia,tingling sensation
tremors|tremor,shaking of hands,trembling
sweating|excessive sweating,perspiration,diaphoresis,sweats
night sweats|night sweat,sweating at night,sweating during night,sweating in night,sweats at night,sweaty at night
hot flashes|hot flushes,hot flash,hot flush
weakness of limbs|limb weakness,weakness in arm,weakness in leg,paralysis
confusion|disorientation,altered sensorium
excessive thirst|polydipsia,increased thirst
heaviness in ear|ear fullness,blocked ear,fullness in ear,ear blockage,heaviness in the ear
nose bleed|epistaxis,bleeding from nose,nosebleed
mouth ulcers|mouth ulcer,ulcers in mouth,oral ulcers
bleeding gums|gum bleeding
jaundice|yellowish discoloration of eyes,yellow eyes,yellowness of eyes,icterus
drooling|drooling of saliva
stiffness|joint stiffness
morning stiffness|morning stiffness
cramps|muscle cramps
tick bite|tick bites,bitten by tick
insect bite|insect bites,bug bite,bug bites
animal bite|dog bite,cat bite
visual aura|aura,zigzag lines,zig zag lines,flashing lights
urinary urgency|urgency,urgency of urination
feeling unwell|generally unwell,unwell,malaise
`;

export interface Symptom {
  name: string;
  variants: string[];
}

export const SYMPTOMS: readonly Symptom[] = TABLE.trim().split('\n').map((line) => {
  const [name = '', variants = ''] = line.split('|');
  return { name, variants: variants.split(',').map((s) => s.trim()).filter(Boolean) };
});

/**
 * Sensations a note writes as one complaint when they are said together ("numbness and tingling in the right hand",
 * "shaky and weak all over", "burning and tingling in both feet"); pain and swelling stay two complaints.
 */
export const JOINT_SENSATIONS: ReadonlySet<string> = new Set(
  'numbness,tingling,burning,weakness,shakiness,heaviness,bloating,pins and needles'.split(','),
);

/** Names of one complaint: said twice in different words ("run down … very tired"), it is one complaint. */
export const SAME_COMPLAINT: readonly (readonly string[])[] = [
  ['fatigue', 'tiredness', 'easy fatigue', 'easy fatigability'],
  ['breathlessness', 'shortness of breath'],
  ['wheezing', 'wheeze'],
  ['running nose', 'runny nose', 'nasal discharge'],
  ['hoarseness of voice', 'hoarse voice'],
  // "I'm dizzy, the room is spinning": one complaint, named as first told.
  ['dizziness', 'vertigo', 'giddiness'],
];

/**
 * What brings a pain or pressure on, said after it, which the note keeps in the complaint's name: "pain with bowel
 * movements", "sore chest on deep breathing", "hand pain when typing". Each a word or phrase after "with", "on",
 * "during", "when" or "while"; a word ending in -ing is also taken.
 */
export const TRIGGERS: readonly string[] = (
  'bowel movements,bowel movement,passing stool,passing stools,passing urine,urination,micturition,intercourse,sex,' +
  'deep breath,deep breaths,deep breathing,breathing,coughing,sneezing,swallowing,eating,meals,food,walking,exertion,' +
  'exercise,typing,writing,movement,moving,bending,lifting,standing,sitting,lying down,climbing stairs,chewing,' +
  'opening mouth,urinating,defecation,menses,periods'
).split(',');

/** Words after a symptom that make it the name of a remedy ("cough syrup", "cold medicine", "allergy tablets"). */
export const REMEDY_NOUNS: ReadonlySet<string> = new Set(
  'syrup syrups medicine medicines medication medications tablets tablet pills pill drops spray lozenges lozenge remedy remedies relief formula'.split(' '),
);
