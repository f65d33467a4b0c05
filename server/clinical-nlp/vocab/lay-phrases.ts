/**
 * How patients and relatives say a complaint, mapped to the name a note writes. Written as families of everyday
 * wording per complaint (across specialties), not from any one dictation. The structurer matches them on tokens with
 * filler words removed (its own list: "my", "so", "really", "feel"...), so "my chest feels so tight" finds
 * "chest tight"; write each phrase the plain way and leave out such words.
 *
 * One complaint a line: name | phrases (comma separated). A name with ";" is several complaints said in one phrase.
 */
const TABLE = `
fever|burning up,running a temperature,running temperature,had a temperature,got a temperature,body is hot,body hot,hot to touch,feels hot,temperature spikes,fever spikes,spiking fevers,fevers,temperature coming,temperature at night
low grade fever|slight temperature,mild temperature,low grade temperature,mild fever,slight fever,low fever
chills|shivering,shivers,shaking chills,feel cold and shiver,shaky and cold
fatigue|feel tired whole day,feels tired whole day,feel tired all day,feels tired all day,feel tired all time,feels tired all time,tiredness all day,tired whole day,tired all time,tired all day,no energy,low energy,lack of energy,lacking energy,worn out,drained,exhausted,run down,always tired
easy fatigability|tire easily,get tired easily,gets tired easily,tired easily,easy tiredness,get tired quickly,gets tired quickly,tired quickly
tiredness|tired,feel tired,feels tired,feeling tired
weakness|weak,very weak,feel weak,feels weak,weak all over,no strength,lost strength
daytime sleepiness|sleeping lot during day,sleepy during day,sleepy all day,sleepy whole day,nodding off,dozing off,falls asleep during day,falling asleep during day,sleeps during day,drowsy during day,nodding off at wheel
sleepiness|sleepy,drowsy,drowsiness
weight loss|lost weight,losing weight,clothes become loose,clothes loose,clothes getting loose,become thin,became thin,getting thinner,lost kilos,lost kg
weight gain|put on weight,gained weight,put on kilos,put on kg,gaining weight,weight gone up,weight going up,weight increased,up kilos,getting fat,become fat
decreased appetite|not eating much,hardly eating,eating less,eats less,don't feel hungry,not hungry,no hunger,not feeling hungry,doesn't feel hungry,appetite is less,appetite less,appetite down,appetite gone,not eating anything,not able to eat,can't eat,cannot eat,unable to eat,doesn't want to eat,won't eat,not interested in food,off food,off his food,off her food
poor feeding|not feeding well,not feeding,feeding less,not taking feeds,not drinking milk,refusing feeds,refuses feeds,poor feeds
picky eating|picky eater,fussy eater,only eats,eats only,won't eat anything except,refuses to eat vegetables
excessive thirst|thirsty all time,always thirsty,very thirsty,thirsty,feel thirsty,lot of thirst,drinking lot of water,drinks lot of water,mouth always dry
increased thirst|more thirsty,thirst increased,thirstier
sweating|sweating lot,sweaty,drenched in sweat,sweat at night,soaked in sweat
cold intolerance|feel cold when everyone else is fine,always feel cold,always cold,can't tolerate cold,cannot tolerate cold,feel cold,feels cold
heat intolerance|can't tolerate heat,cannot tolerate heat,always feel hot,feel hot all time
breathlessness|out of breath,can't catch breath,cannot catch breath,catch breath,can't breathe,cannot breathe,hard to breathe,difficult to breathe,difficulty to breathe,breathing is difficult,breathing difficult,winded,gets winded,get winded,huffing and puffing,huffing puffing,gasping,gasping for breath,breathing is hard,breathing heavy,trouble with breathing,breathlessness,breathless,breathing trouble
shortness of breath|short of breath,breath gets short,breath is short,getting short of breath
fast breathing|breathing fast,breathing very fast,breathing quickly,rapid breathing,breathes fast,fast breaths
orthopnoea|can't lie flat,cannot lie flat,unable to lie flat,can't lie down flat,breathless lying down,breathless when lying down,sleeps propped up,sleep propped up,propped up on pillows,need pillows to sleep,needs pillows to sleep,extra pillows,sleeps sitting up,sleep sitting up,orthopnea
paroxysmal nocturnal dyspnoea|wake up at night breathless,wakes up at night breathless,wake up gasping,wakes up gasping,wake up choking,waking up breathless at night
cough|coughing,coughs,keeps coughing,coughing lot,coughing fits,hacking,cough that keeps me up,coughing at night,coughing whole night
cough with sputum|coughing up phlegm,bringing up phlegm,coughing up mucus,bringing up mucus,phlegm coming out,coughing up sputum,spitting phlegm,productive cough,wet cough,chesty cough
dry cough|tickly cough,dry hacking cough,cough without phlegm,nothing comes out when coughing
blood streaked sputum|sputum streaked with blood,phlegm streaked with blood,streaks of blood in sputum,blood in phlegm,blood in sputum,blood stained sputum
haemoptysis|coughing blood,coughing up blood,coughed up blood,spitting blood,blood in cough,hemoptysis
wheeze|whistling,whistling in chest,chest whistles,wheezy,chest wheezy,wheezing sound
chest tightness|chest feels tight,chest tight,chest is tight,tight chest,tightness in chest,chest tightness,pressure in chest,chest pressure,chest feels heavy,heavy chest,band around chest
chest pain|chest hurts,chest hurting,chest paining,chest aches,pain in chest,chest is painful,chest is paining
palpitations|heart pounds,heart pounding,heart is pounding,heart races,heart racing,heart is racing,heart beating fast,heart beats fast,heart beats very fast,fast heartbeat,heart flutters,fluttering,heart skipping,skipped beats,skips beat,heart thumping,thumping in chest,heart jumps,racing heart,pounding heart,heart goes fast,heart beat fast
running nose|nose is running,nose running,nose keeps running,dripping nose,nose dripping,snotty nose,snot,drippy nose
thick green nasal discharge|green snot,green mucus from nose,thick green discharge from nose,yellow green snot
nasal congestion|stuffy nose,stuffed nose,nose is stuffy,stuffed up,congested nose,nose congested
nasal blockage|blocked nose,nose block,nose blocked,nose is blocked,can't breathe through nose,cannot breathe through nose,nose gets blocked
sneezing|sneezes,keep sneezing,sneezing fits
sore throat|throat is sore,throat sore,throat hurts,throat hurting,throat is paining,throat paining,throat killing,throat killing me,throat is killing,scratchy throat,throat scratchy,throat ache
painful swallowing|hurts to swallow,swallowing hurts,pain when swallowing,pain on swallowing,painful to swallow,swallowing glass,swallowing is painful,pain when swallow,hurts when swallow,hurts when swallows
difficulty swallowing|food getting stuck,food gets stuck,food sticks,food sticking,can't swallow,cannot swallow,trouble swallowing,hard to swallow,difficult to swallow
hoarseness of voice|voice is hoarse,voice hoarse,lost voice,lost my voice,voice has gone,voice gone,croaky voice,voice is croaky,voice changed,voice is rough
noisy breathing|breathing is noisy,noisy breath,rattling in chest,rattly breathing,grunting
snoring|snores heavily,snores loudly,snores lot,snoring loudly,snore loudly
ear pain|pulling at ear,pulling at ears,pulling ear,pulls at ear,pulls ear,tugging at ear,tugging ear,tugs at ear,rubbing ear,rubs ear,holding ear,ear hurts,ear hurting,ear is paining,ear paining,ear aches,ear is sore,ear sore
ear discharge|ear is leaking,ear leaking,water coming from ear,pus from ear,pus coming from ear,fluid from ear,discharge from ear,ear is running,ear running
heaviness in ear|ear feels blocked,ear blocked,ear is blocked,ear feels full,fullness in ear,ear feels heavy,ear heavy
reduced hearing|can't hear well,cannot hear well,can't hear properly,hearing is less,hearing less,hard of hearing,doesn't hear well,not hearing well,hearing has gone down,hearing gone down,hearing is poor
ringing in ears|ears buzzing,ears are buzzing,ear buzzing,ear is buzzing,ears ringing,ears are ringing,ear ringing,ringing in ear,buzzing in ear,buzzing in ears,ringing sound,buzzing sound,whistling in ear,noise in ear
redness of eyes|eyes are red,eyes red,eye is red,eye red,red eyes,red eye,eyes have turned red,eyes turned red,eyes look red,pink eye
watering of eyes|eyes watering,eye watering,eyes are watering,tears coming,tears keep coming,eyes keep watering,watering
itching of eyes|eyes itchy,eye itchy,itchy eyes,eyes itch,eyes itching,eye itching
sticky eye discharge|eyelids stuck together,eyelids are stuck together,lids stuck together,lids were stuck together,eyes stuck shut,eyes glued shut,sticky yellow stuff,sticky stuff in eyes,sticky discharge,eye discharge,discharge from eyes,yellow discharge from eyes,crusting of eyelids,crusty eyes
foreign body sensation in eyes|sand in eyes,sand inside,like there is sand,feels like sand,something in eye,something in eyes,something in my eye
gritty sensation in eyes|gritty feeling,gritty eyes,eyes feel gritty,gritty
blurry vision|vision is blurry,vision blurry,vision seems blurry,blurry,things look blurry,blurry eyesight
blurring of vision|can't see clearly,cannot see clearly,vision is hazy,hazy vision,vision is not clear,vision not clear,vision unclear,vision is dim,dim vision,misty vision,foggy vision,eyesight gone down,eyesight is weak
double vision|seeing double,see double,seeing two of everything,diplopia
photophobia|light hurting eyes,light hurting,lights hurting eyes,light hurts eyes,light hurts,light bothers,bright light bothers,discomfort in bright light,sensitive to light,light sensitivity,can't stand light,cannot stand light,light makes worse,light makes it worse,bright light hurts
phonophobia|noise bothers,sensitive to noise,sensitive to sound,can't stand noise,noise makes worse,noise makes it worse,loud noise bothers
photophobia;phonophobia|light and noise make worse,light and noise make it worse,light and sound make worse,light and noise bother,light and noise,light and sound
retro orbital pain|eyes pain from behind,pain behind eyes,pain behind eye,eyes hurt from behind,behind eyes pain,pain behind my eyes,hurts behind eyes
eye pain|eyes pain,eye pain,eye hurts,eyes hurt,eyes hurting,eye hurting,eye paining,eyes paining
headache|head is pounding,head pounding,head hurts,head hurting,head is paining,head paining,head is aching,head aching,head is splitting,splitting head,head feels heavy,head is heavy,heavy head,head is bursting,pain in head,head pains
giddiness|head is spinning,head spinning,head spins,reeling
dizziness|giddy,feel giddy,feels giddy,dizzy,feel dizzy,feels dizzy,woozy,everything goes dark,goes dark,vision goes dark,blacks out,feel like blacking out,feel like fainting,feel faint,feels faint
vertigo|room is spinning,room spins,room spinning,room is going round,room goes round,everything spins,everything spinning,everything is spinning,world is spinning,spinning
fainting|passed out,passes out,blacked out,fainted,faints,fainting spells,collapsed,lost consciousness,fell unconscious
falls|fallen,fell down,fell,falling,had fall,keeps falling,tripped and fell
confusion|confused,more confused,getting confused,disoriented,not making sense,mixed up,muddled
memory loss|forgetful,forgets things,forgetting things,memory is weak,memory poor,can't remember,cannot remember,poor memory,memory problem
seizure|had fits,fits,jerking,jerking movements,body was shaking,went stiff and shook,convulsed,seizures
weakness of limbs|arm is weak,arm weak,leg is weak,leg weak,can't lift arm,cannot lift arm,leg gave way,legs give way,hand is weak,hand weak,weakness of one side,one side weak
numbness|numb,feels numb,gone numb,goes numb,no feeling,lost feeling,dead feeling
tingling|pins and needles,pricking sensation,crawling sensation,tingles,tingly
burning feet|feet are burning,feet burning,burning in feet,burning of feet,burning sensation in feet,soles burning,soles are burning,burning soles
tremors|hands shake,hands shaking,shaky hands,shaking hands,trembling hands,hands tremble
difficulty walking|can't walk far,cannot walk far,can't walk much,difficulty in walking,trouble walking,hard to walk,difficult to walk,walking is difficult,unable to walk,can't walk,cannot walk
excessive worry|worry about everything,worry lot,worries lot,worry too much,worries too much,worrying lot,worrying all time,worry all time,can't stop worrying,cannot stop worrying,worries constantly,worry constantly,constant worry,always worried,always worrying,worrying,wound up,on edge
anxiety|anxious,nervous,nervousness,tense,panicky,panic,restless,restlessness,uneasy
low mood|feel low,feels low,feeling low,feel sad,feels sad,feel down,feels down,down in dumps,depressed,sad,unhappy,crying spells,feels like crying,hopeless
loss of interest|don't enjoy,doesn't enjoy,don't really enjoy,no longer enjoy,not enjoy,lost interest,no interest,don't feel like doing anything,doesn't feel like doing anything,don't feel like doing,don't even feel like,not interested in anything
poor concentration|can't concentrate,cannot concentrate,difficulty concentrating,trouble concentrating,concentration is poor,concentration poor,making mistakes,keep making mistakes,mind wanders,can't focus,cannot focus,unable to focus
early morning awakening|wake up early,waking up early,wakes up early,wake up at 3 or 4,get up at 3 or 4,up at 3 or 4 in morning,wake up too early,can't go back to sleep,cannot go back to sleep
difficulty falling asleep|can't fall asleep,cannot fall asleep,takes long to fall asleep,takes hours to fall asleep,lie awake,lying awake,can't get to sleep,cannot get to sleep,trouble falling asleep,hard to fall asleep
inability to sleep|can't sleep,cannot sleep,not able to sleep,unable to sleep,no sleep,sleep is poor,sleep poor,not sleeping,not sleeping well,sleep badly,sleeping badly,hardly sleep,can't sleep properly,sleeplessness
irritability|irritable,cranky,fussy,gets angry easily,short tempered,snapping at everyone
muscle tension|neck and shoulders are tight,neck and shoulders tight,shoulders tight,shoulders are tight,neck is tight,tight muscles,muscles tight,muscles are tight,muscle tightness
nausea|feeling sick,felt sick,need to vomit,going to vomit,going to be sick,about to vomit,feel like vomiting,feels like vomiting,feeling like vomiting,like vomiting,want to vomit,feel sick,feels sick,feel sick to stomach,sick to stomach,queasy,queasiness,urge to vomit,nauseous,nauseated,want to throw up,feel like throwing up,retching
vomiting|can't keep anything down,cannot keep anything down,not able to keep anything down,unable to keep anything down,cannot keep food down,not keeping anything down,can't keep food down,can't keep down,throwing up,threw up,throws up,puking,puked,vomited,vomits,vomit,brings up food,bringing up food,whatever eats vomits,whatever she eats vomits,whatever he eats vomits,eats vomits
loose stools|loose motions,loose motion,runny stools,watery stools,watery motions,stools are watery,motions are watery,going to toilet many times,diarrhoea,diarrhea,loose potty,watery potty,frequent stools,stomach is running,loosies
constipation|hasn't pooped,has not pooped,haven't pooped,not pooped,hasn't passed stool,not passed stool,not passing stool,no motion,no bowel movement,hasn't had bowel movement,bowels not moving,bowels not open,hard stools,hard stool,stools are hard,straining,strains,strain to pass stool,constipated,blocked up,goes once every,only goes every,poop is hard
blood in stools|blood in stool,blood in potty,blood in poop,blood with stools,bleeding from back passage,bleeding from bottom
blood streak on toilet paper|streak on toilet paper,blood on toilet paper,blood on paper,streak of blood on toilet paper
dark stools|stools are dark,stools dark,dark stool,dark motions
black stools|stools are black,stools black,black stool,black motions,tarry stools
heartburn|heart burn,acid in chest,chest burns after eating,burning after eating,burning after food
acid regurgitation|sour water comes up,sour water coming up,sour water in mouth,sour water,food comes back up,food comes up,acid comes up,acid coming up,acid in throat,acid in mouth,sour taste in mouth,bitter water in mouth,regurgitation,regurgitate
bloating|feels bloated,bloated,gassy,full of gas,lot of gas,stomach is full,stomach feels full,tummy bloated,stomach bloated,belly bloated,stomach swollen,stomach feels heavy,heavy after food,heaviness after food,feels heavy after food,fullness after food
abdominal pain|tummy hurts,tummy hurting,tummy is hurting,stomach hurts,stomach hurt,stomach hurting,stomach is hurting,belly hurts,belly hurting,tummy ache,belly ache,tummy paining,stomach paining,stomach is paining,belly paining,pain in tummy,pain in belly,pain in stomach,stomach pain,tummy pain,belly pain,stomach aches,tummy aches,gripe,griping
abdominal cramps|stomach cramps,tummy cramps,cramps in stomach,cramps in tummy,cramping in stomach,cramping in abdomen,cramps in abdomen
periumbilical abdominal pain|pain around navel,pain around belly button,pain near belly button,pain near navel,belly button hurts,pain around umbilicus
suprapubic pressure|pressure down low,pressure in lower tummy,pressure in lower belly,pressure above pubic bone,pressure in bladder,pressure low down
suprapubic discomfort|discomfort down low,discomfort in lower tummy,discomfort in lower belly,discomfort above pubic bone,pain above pubic bone,pain in lower tummy,pain in lower belly,lower tummy pain,lower belly pain,suprapubic pain
jaundice|yellow eyes,eyes are yellow,eyes yellow,eyes turned yellow,eyes have turned yellow,skin is yellow,skin yellow,skin turned yellow,yellowish eyes,yellow skin,yellowness
dysuria|hurts when pee,hurting when pee,hurts to pee,pain when pee,painful to pee,stinging when pee,stings when pee,hurts when urinate,hurting when urinate,pain when urinate,painful to urinate,hurts when passing urine,pain on passing urine,pain passing urine,pain when passing urine,bothers me when pee
foul smelling urine|urine smells,smelly urine,smells weird,smells funny,smells bad,smells strong,strong smelling urine,offensive smelling urine
feeling unwell|don't feel well,not feeling well,not feel well,feel unwell,feeling unwell,feel poorly,feeling poorly,under weather,feel ill,feeling ill,feel rough,feeling rough,generally unwell
burning micturition|burning when pee,burns when pee,burning when peeing,burns when peeing,burning when urinate,burns when urinate,burning when urinates,burns when urinates,burning when passing urine,burning while passing urine,burning while urinating,burning when passing water,burning passing water,burning while peeing,stinging when pee,stings when pee,stinging when passing urine,pain when pee,hurts when pee,hurts to pee,pain when peeing,painful to pee,pee burns,urine burns,burning urine,burning in urine,burning sensation in urine,burning while passing water
urinary frequency|passing water again and again,passing urine again and again,urinating again and again,peeing again and again,peeing often,pee often,urinate often,urinating often,urinating more often,urinate more often,going to bathroom every hour,going to bathroom lot,going to toilet lot,go to bathroom every hour,have to go every hour,have to go every half hour,go every half hour,go every hour,going every hour,frequent urge to pee,frequent urge to urinate,frequent urination,frequency of urination,increased frequency,increased frequency of urination,passing urine frequently,frequent micturition,urine frequently,running to toilet,running to bathroom
urinary urgency|can't hold urine,cannot hold urine,can't hold it,have to rush to toilet,have to rush to bathroom,urgency,sudden urge to pee,urgent need to pee
urinary incontinence|leak urine,leaks urine,leaking urine,wets herself,wets himself,wetting,can't control urine,cannot control urine,urine leaks,incontinence
nocturia|up at night to pee,get up at night to pee,gets up at night to pee,getting up at night to pee,wake up at night to pee,wakes up at night to pee,waking up at night to pee,up times night to pee,up night to pee,times night to pee,times at night to pass urine,at night to pass urine,night to pass urine,get up at night to pass urine,gets up at night to pass urine,wake up at night to pass urine,up at night to urinate,get up at night to urinate,getting up to urinate at night,get up to urinate at night,getting up at night to urinate,urinate at night,urinating at night,pee at night,peeing at night,pass urine at night,passing urine at night,passing urine at night,nighttime urination,night time urination
weak urinary stream|stream is weak,weak stream,stream weak,poor flow,slow stream,stream is slow,flow is weak,weak flow,thin stream
hesitancy|waiting for it to start,wait for it to start,stand there forever waiting,takes time to start,takes long to start,difficulty starting,hard to start,trouble starting,urinary hesitancy
terminal dribbling|dribbles at end,dribbling at end,dribbling,dribbles,drips at end,dribbling after
sensation of incomplete bladder emptying|not totally empty,never feel totally empty,not completely empty,bladder not empty,bladder is not empty,bladder doesn't empty,incomplete emptying,feel like bladder is still full,still feel full after peeing,feel like have to go again
pink urine|urine is pink,urine looked pink,looked pink,pee is pink,pinkish urine
blood in urine|blood in pee,red urine,urine is red,urine looks red,bloody urine,haematuria,hematuria
decreased urine output|passing less urine,less urine,peeing less,not peeing much,not passing much urine,urine is less,urine less,passes little urine
frothy urine|urine is frothy,foamy urine,urine is foamy,bubbles in urine,froth in urine
dark urine|urine is dark,urine dark,dark yellow urine,tea coloured urine,cola coloured urine
heavy menstrual bleeding|periods are heavy,periods heavy,heavy periods,heavy bleeding,bleeding heavily,bleeding lot during periods,flooding,soaking pads,soaking through pads,changing pad every hour,passing clots,clots during periods,heavy flow
irregular periods|periods irregular,periods are irregular,periods not regular,periods come late,periods are late,periods coming late,periods not on time,cycles irregular,irregular cycles,irregular menses
missed periods|missed period,missed periods,period is late,period late,no periods,periods stopped,haven't had periods,hasn't had periods
painful periods|periods are painful,periods painful,pain during periods,cramps during periods,period cramps,period pain
vaginal discharge|white discharge,discharge down there,discharge from vagina,white water,discharge per vaginum,smelly discharge
genital itching|itching down there,itchy down there,itching in private parts,itching in private part,private parts itch,private part itching,itching in vagina
generalised itching|itching all over,itching all over body,itching all over body,itchy all over,itch all over,whole body itches,whole body itching,body itching,itching whole body,body is itching,itchy body
itching|itchy,itches,itch,scratching,scratches,keeps scratching,scratching whole night,itching whole night,itching too much,itching at night
perianal itching|itching around bottom,itchy bottom,bottom itches,scratching bottom,scratching at bottom,itching at bottom,itching in bottom,bottom is itchy,itching around anus,itchy anus
rash|rashes,red spots,spots,bumps,spots on skin,breaking out,broke out,skin is breaking out,red bumps,hives
ring shaped rash|round rings,rings on skin,ring shaped rash,circular rash,round rash
itchy ring shaped rash|itchy round rings,itchy rings
pimples|pimples,zits,acne,breakouts,bumps on face
hair fall|hair is falling,hair falling,hair coming out,hair is coming out,hair comes out,losing hair,hair falling out,hair loss,hair thinning,thinning hair,bald patches,clumps of hair
scalp flaking|flaking of scalp,flakes on scalp,flaky scalp,scalp is flaky,white flakes in hair,dandruff
dry skin|skin is dry,skin dry,skin feels dry,flaky skin,skin flaking,skin peeling,peeling skin
cracked skin|skin cracked,skin is cracked,skin cracks,cracks in skin
blisters|water filled bumps,water bubbles,fluid filled bumps,bubbles on skin,blebs
boils|boil,abscess,pus filled bump,pus bumps
wound|sore that won't heal,sore not healing,wound not healing,non healing wound,ulcer not healing
lump|swelling in neck,neck swelling,lump in neck,lump in breast,lump in armpit,lump under arm,growth,mass
mouth ulcers|sores in mouth,mouth sores,ulcers in mouth,blisters in mouth,mouth ulcer
bleeding gums|gums bleed,gums bleeding,blood from gums,bleeding from gums
nose bleed|nose bleeds,nose bleeding,bleeding from nose,blood from nose,nosebleed,nosebleeds
tooth pain|toothache,tooth hurts,tooth is paining,teeth hurt,teeth hurting,tooth aches,tooth aching
body ache|body aches,body is paining,body paining,whole body is paining,whole body paining,whole body aches,body hurts,aching all over,hurts all over,pain all over body,body pain,like somebody has beaten me,like someone has beaten me,beaten with sticks,beaten me
muscle aches|muscles ache,muscles aching,muscles hurt,muscles are sore,sore muscles
joint pain|joints hurt,joints ache,joints aching,joints paining,joints are paining,joint pains,aching joints
morning stiffness|stiff in morning,stiff in mornings,stiff when wake up,stiff when get up,stiffness in morning,stiffness in mornings,stiff mornings,morning stiffness
stiffness|stiff,feels stiff,gets stiff,stiffness
low back pain|lower back hurts,lower back hurting,lower back pain,low back hurts,lower back is paining,lower back paining,pull in lower back,pulled lower back,lower back aches,pain in lower back,lower back,low back
back pain|back hurts,back hurting,back is paining,back paining,back is killing,back killing,back aches,backache,back ache,pulled back,back is sore,sore back
neck pain|neck hurts,neck is paining,neck paining,neck aches,neck is sore,sore neck,crick in neck,neck hurt
leg cramps|cramps in legs,cramps in leg,leg cramps,calf cramps,cramps in calf,cramps in calves,charley horse
cramps|cramp,muscle cramps
chest pain on breathing|hurts to breathe,pain when breathe,pain when breathing,pain on breathing,pain on deep breath
difficulty in breathing through mouth|mouth breathing,breathes through mouth
`;

export interface LayPhrase {
  /** The complaint names, usually one. */
  names: string[];
  phrases: string[];
}

export const LAY_PHRASES: readonly LayPhrase[] = TABLE.trim().split('\n').map((line) => {
  const [names = '', phrases = ''] = line.split('|');
  return { names: names.split(';'), phrases: phrases.split(',').map((s) => s.trim()).filter(Boolean) };
});

/**
 * Body sites as people name them → the word a note uses, for complaints built from a site and a kind of trouble
 * ("my knee is killing me" → knee pain, "ankles swell up" → ankle swelling).
 */
export const SITES: Readonly<Record<string, string>> = {
  head: 'head', scalp: 'scalp', face: 'face', cheek: 'cheek', cheeks: 'cheeks', forehead: 'forehead', jaw: 'jaw',
  eye: 'eye', eyes: 'eyes', eyelid: 'eyelid', eyelids: 'eyelids', lid: 'eyelid', lids: 'eyelids',
  ear: 'ear', ears: 'ears', nose: 'nose', throat: 'throat', neck: 'neck', tongue: 'tongue', lip: 'lip', lips: 'lips',
  mouth: 'mouth', gums: 'gums', tooth: 'tooth', teeth: 'teeth',
  shoulder: 'shoulder', shoulders: 'shoulders', arm: 'arm', arms: 'arms', elbow: 'elbow', elbows: 'elbows',
  forearm: 'forearm', wrist: 'wrist', wrists: 'wrists', hand: 'hand', hands: 'hands', finger: 'finger', fingers: 'fingers',
  thumb: 'thumb', chest: 'chest', breast: 'breast', breasts: 'breasts', back: 'back', spine: 'back',
  abdomen: 'abdomen', belly: 'abdomen', stomach: 'abdomen', tummy: 'abdomen', side: 'flank', flank: 'flank',
  loin: 'loin', groin: 'groin', hip: 'hip', hips: 'hips', buttock: 'buttock', buttocks: 'buttocks', bottom: 'perianal',
  thigh: 'thigh', thighs: 'thighs', knee: 'knee', knees: 'knees', leg: 'leg', legs: 'legs', calf: 'calf',
  calves: 'calves', shin: 'shin', shins: 'shins', ankle: 'ankle', ankles: 'ankles', foot: 'foot', feet: 'feet',
  heel: 'heel', heels: 'heels', toe: 'toe', toes: 'toes', sole: 'sole', soles: 'soles', joints: 'joints', joint: 'joint',
  // Regions a report names by adjective ("pelvic pain", "rectal bleeding").
  pelvic: 'pelvic', pelvis: 'pelvic', suprapubic: 'suprapubic', rectal: 'rectal', rectum: 'rectal', perineal: 'perineal',
  testicle: 'testicle', testicles: 'testicles', testicular: 'testicular', scrotal: 'scrotal', scrotum: 'scrotal',
  skin: 'skin', body: 'body', muscles: 'muscles',
};

/** Sites named by an adjective, which goes before the kind's noun ("rectal itching", not "itching of rectal"). */
export const REGION_ADJECTIVES: ReadonlySet<string> = new Set(['pelvic', 'suprapubic', 'rectal', 'perineal', 'testicular', 'scrotal']);

/**
 * Kinds of trouble said as a verb or adjective next to a site, with how the note names site and kind together.
 * `{site}` is the site's word with its side ("left ear", "both feet").
 */
export const SITE_KINDS: readonly { words: string[]; name: string }[] = [
  {
    words: ('hurts hurt hurting paining pains painful aching aches ache sore killing throbbing pounding tender ' +
      'bothering pain').split(' '),
    name: '{site} pain',
  },
  { words: 'swollen swelling swell swells swelled puffy puffed swelled-up bloated'.split(' '), name: 'swelling of {site}' },
  { words: 'red redness reddish'.split(' '), name: 'redness of {site}' },
  { words: 'itchy itching itches itch'.split(' '), name: 'itching of {site}' },
  { words: 'numb numbness'.split(' '), name: 'numbness of {site}' },
  { words: 'tingling tingles tingly'.split(' '), name: 'tingling in {site}' },
  { words: 'weak weakness'.split(' '), name: 'weakness of {site}' },
  { words: 'stiff stiffness'.split(' '), name: '{site} stiffness' },
  { words: 'burning burns'.split(' '), name: 'burning {site}' },
  { words: 'cramps cramping cramp'.split(' '), name: '{site} cramps' },
];

/** A site's pain that a note names differently from "{site} pain". */
export const SITE_PAIN_NAMES: Readonly<Record<string, string>> = {
  head: 'headache', abdomen: 'abdominal pain', throat: 'sore throat', body: 'body ache', muscles: 'muscle aches',
  teeth: 'tooth pain', joints: 'joint pain', perianal: 'perianal pain', 'lower back': 'low back pain',
  face: 'facial pain', eyes: 'eye pain', ears: 'ear pain', knees: 'knee pain',
};
